import { bookingPagePath, MANAGE_LINK_UNKNOWN, type PublicManagedVisit } from '@dental/shared/domain';
import { useEffect, useState } from 'react';
import { cancelVisit, confirmVisit, getManagedVisit, moveVisit } from '../api/manageLink';
import { PublicApiError } from '../api/publicRequest';
import { usePublicRead } from '../api/usePublicRead';
import { ClinicHeader } from '../components/ClinicHeader';
import { LoadFailed } from '../components/LoadFailed';
import { MoveVisit } from '../components/MoveVisit';
import { NotHere } from '../components/NotHere';
import { Notice } from '../components/Notice';
import { VisitSummary } from '../components/VisitSummary';
import { clinicToday, statusLabel } from '../components/visitFormat';

type Mode = 'view' | 'move' | 'cancel';

/** A visit's manage page, `/book/manage/<token>`: only the first name, the visit and the clinic. */
export default function ManagePage({ token }: { token: string }) {
  const loaded = usePublicRead(token, () => getManagedVisit(token));
  const [visit, setVisit] = useState<PublicManagedVisit | null>(null);
  const [mode, setMode] = useState<Mode>('view');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);

  useEffect(() => {
    if (loaded.read.state === 'ready') setVisit(loaded.read.data);
  }, [loaded.read]);
  useEffect(() => {
    document.title = visit ? `Your visit: ${visit.clinic.name}` : 'Your visit';
  }, [visit]);

  if (loaded.read.state === 'failed' && !visit) {
    if (loaded.read.error.status === 404) return <NotHere message={MANAGE_LINK_UNKNOWN} />;
    return <LoadFailed title="Your visit" message={loaded.read.error.message} onRetry={loaded.reload} />;
  }
  if (!visit) return <p className="booking-loading">Loading…</p>;

  const act = async (action: () => Promise<PublicManagedVisit>, done: string) => {
    setBusy(true);
    setMessage(null);
    try {
      setVisit(await action());
      setMode('view');
      setMessage({ tone: 'info', text: done });
    } catch (error) {
      if (!(error instanceof PublicApiError)) throw error;
      // "I can't come" inside the cut-off is answered with the call the clinic will make: news, not a fault.
      setMessage({ tone: error.status === 409 && !visit.can_change ? 'info' : 'error', text: error.message });
      // Refused inside the cut-off or moved on meanwhile: show the visit as it is now.
      if (error.status === 409) loaded.reload();
      setMode('view');
    } finally {
      setBusy(false);
    }
  };

  const { appointment } = visit;
  const live = appointment.status === 'pending' || appointment.status === 'confirmed';
  return (
    <main className="booking-page">
      <ClinicHeader clinic={visit.clinic} />
      <h1>Hello {visit.first_name}</h1>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      <section className="booking-card" aria-label="Your visit">
        <VisitSummary visit={appointment} status={statusLabel(appointment.status)} />
        {live && !visit.can_change && (
          <p className="booking-hint">
            Visits can be moved or cancelled online up to {visit.cutoff_hours} hours before. To change this
            one, please call us{visit.clinic.phone ? ` on ${visit.clinic.phone}` : ''}.
          </p>
        )}
        {mode === 'view' && live && (
          <div className="booking-actions">
            {visit.can_confirm && (
              <button
                type="button"
                className="booking-button"
                disabled={busy}
                onClick={() => void act(() => confirmVisit(token), 'Thank you: your visit is confirmed')}
              >
                Confirm
              </button>
            )}
            {visit.can_change && (
              <button
                type="button"
                className="booking-button-secondary"
                disabled={busy}
                onClick={() => setMode('move')}
              >
                Move
              </button>
            )}
            <button
              type="button"
              className="booking-button-secondary"
              disabled={busy}
              onClick={() => setMode('cancel')}
            >
              {visit.can_change ? 'Cancel' : "I can't come"}
            </button>
          </div>
        )}
        {mode === 'cancel' && (
          <div className="booking-actions">
            <p>{visit.can_change ? 'Cancel this visit?' : 'Ask the clinic to call you about this visit?'}</p>
            <button
              type="button"
              className="booking-button-danger"
              disabled={busy}
              onClick={() => void act(() => cancelVisit(token), 'Your visit is cancelled')}
            >
              {visit.can_change ? 'Yes, cancel the visit' : 'Yes, ask them to call me'}
            </button>
            <button type="button" className="booking-button-secondary" onClick={() => setMode('view')}>
              Keep the visit
            </button>
          </div>
        )}
      </section>
      {!live && (
        <p>
          <a className="booking-button-secondary" href={bookingPagePath(visit.clinic.slug)}>
            Book another visit
          </a>
        </p>
      )}
      {mode === 'move' && (
        <MoveVisit
          visit={visit}
          today={clinicToday(visit.clinic.timeZone)}
          busy={busy}
          onMove={(to) => void act(() => moveVisit(token, to), 'Your visit is moved')}
          onClose={() => setMode('view')}
        />
      )}
    </main>
  );
}
