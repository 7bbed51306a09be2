import { useEffect, useMemo, useState } from 'react';
import { getClinic, getFreeTimes } from '../api/bookingPage';
import { usePublicRead } from '../api/usePublicRead';
import { ClinicHeader } from '../components/ClinicHeader';
import { CodeForm } from '../components/CodeForm';
import { ContactForm } from '../components/ContactForm';
import { HoldCountdown } from '../components/HoldCountdown';
import { LoadFailed } from '../components/LoadFailed';
import { NotHere } from '../components/NotHere';
import { Notice } from '../components/Notice';
import { TimeChoice } from '../components/TimeChoice';
import { type Choice, typesFor, VisitChoice } from '../components/VisitChoice';
import { VisitSummary } from '../components/VisitSummary';
import { clinicToday, dayLabel } from '../components/visitFormat';
import { useBookingSteps } from './useBookingSteps';

/** A clinic's booking page, `/book/<slug>`: choose a visit and a time, say who you are, type the code. */
export default function BookingPage({ slug }: { slug: string }) {
  const clinic = usePublicRead(slug, () => getClinic(slug));
  const info = clinic.read.state === 'ready' ? clinic.read.data : null;
  const today = useMemo(() => (info ? clinicToday(info.timeZone) : ''), [info]);
  const [choice, setChoice] = useState<Choice | null>(null);

  useEffect(() => {
    if (!info || choice) return;
    const kind = typesFor(info, 'new').length > 0 ? 'new' : 'returning';
    setChoice({ kind, visitType: typesFor(info, kind)[0]?.id ?? '', dentistId: null, date: today });
  }, [info, choice, today]);

  const timesKey = choice?.visitType
    ? `${choice.visitType}|${choice.dentistId ?? 'any'}|${choice.date}`
    : null;
  const times = usePublicRead(timesKey, () =>
    // biome-ignore lint/style/noNonNullAssertion: the key is null until a choice exists.
    getFreeTimes(slug, { visitType: choice!.visitType, date: choice!.date, dentistId: choice!.dentistId }),
  );
  const steps = useBookingSteps(slug, { show: times.replace, readAgain: times.reload });
  const { step } = steps;

  useEffect(() => {
    document.title = info ? `Book a visit: ${info.name}` : 'Book a visit';
  }, [info]);

  if (clinic.read.state === 'failed') {
    if (clinic.read.error.status === 404) return <NotHere />;
    return <LoadFailed title="Book a visit" message={clinic.read.error.message} onRetry={clinic.reload} />;
  }
  if (!info || !choice) return <p className="booking-loading">Loading…</p>;

  return (
    <main className="booking-page">
      <ClinicHeader clinic={info} />
      <h1>{step.step === 'booked' ? 'Your visit is booked' : 'Book a visit'}</h1>
      {steps.notice && <Notice tone="error">{steps.notice}</Notice>}

      {step.step === 'choose' && (
        <>
          <VisitChoice clinic={info} choice={choice} today={today} onChange={setChoice} />
          {choice.visitType && (
            <TimeChoice
              date={choice.date}
              times={times.read}
              anyDentist={choice.dentistId === null}
              busy={steps.picking}
              onPick={(time) => void steps.pick(choice, time)}
              onRetry={times.reload}
            />
          )}
        </>
      )}

      {(step.step === 'details' || step.step === 'code') && (
        <>
          <section className="booking-card" aria-label="The time you picked">
            <VisitSummary
              visit={{
                ...step.picked,
                date: choice.date,
                treatment: info.visit_types.find((type) => type.id === choice.visitType)?.name ?? '',
              }}
            />
            <HoldCountdown
              expiresAt={step.hold.expires_at}
              time={step.picked.time}
              onExpired={steps.expired}
            />
          </section>
          {step.step === 'details' ? (
            <ContactForm
              initial={steps.contact}
              today={today}
              onSend={steps.send}
              onStartOver={() => steps.startOver(null)}
            />
          ) : (
            <CodeForm
              email={steps.contact?.email ?? ''}
              onConfirm={steps.confirm}
              onResend={steps.resend}
              onChangeDetails={steps.editDetails}
            />
          )}
        </>
      )}

      {step.step === 'booked' && (
        <section className="booking-card" aria-label="Your visit">
          <VisitSummary visit={step.booked.appointment} />
          <p>
            We have sent the details to your e-mail with a calendar file and a private link to confirm, move
            or cancel the visit. Please come a few minutes before {step.booked.appointment.time} on{' '}
            {dayLabel(step.booked.appointment.date)}.
          </p>
          <a className="booking-button" href={step.booked.manage_url}>
            Manage this visit
          </a>
        </section>
      )}
    </main>
  );
}
