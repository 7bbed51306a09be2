import type { PublicClinic } from '@dental/shared/domain';
import { shiftDay } from './visitFormat';

export type PatientKind = 'new' | 'returning';

export interface Choice {
  kind: PatientKind;
  visitType: string;
  dentistId: number | null;
  date: string;
}

interface Props {
  clinic: PublicClinic;
  choice: Choice;
  today: string;
  onChange: (choice: Choice) => void;
}

/** The visit types offered to this kind of patient. */
export const typesFor = (clinic: PublicClinic, kind: PatientKind) =>
  clinic.visit_types.filter((type) => (kind === 'new' ? type.new_patients : type.returning_patients));

/** What the patient wants: new or returning, which visit, which dentist (or any) and which day. */
export function VisitChoice({ clinic, choice, today, onChange }: Props) {
  const types = typesFor(clinic, choice.kind);
  const lastDay = shiftDay(today, clinic.rules.horizon_days);
  const setKind = (kind: PatientKind) => {
    const offered = typesFor(clinic, kind);
    const visitType = offered.some((type) => type.id === choice.visitType)
      ? choice.visitType
      : (offered[0]?.id ?? '');
    onChange({ ...choice, kind, visitType });
  };
  const setDate = (date: string) => {
    if (date >= today && date <= lastDay) onChange({ ...choice, date });
  };

  return (
    <div className="booking-choice">
      <fieldset className="booking-fieldset">
        <legend>Have you been to {clinic.name} before?</legend>
        <label className="booking-radio">
          <input type="radio" name="kind" checked={choice.kind === 'new'} onChange={() => setKind('new')} />
          No, I am a new patient
        </label>
        <label className="booking-radio">
          <input
            type="radio"
            name="kind"
            checked={choice.kind === 'returning'}
            onChange={() => setKind('returning')}
          />
          Yes, I have been here before
        </label>
      </fieldset>

      {types.length === 0 ? (
        <p className="booking-hint">
          Visits for {choice.kind === 'new' ? 'new' : 'returning'} patients cannot be booked online: please
          call us
          {clinic.phone ? ` on ${clinic.phone}` : ''}.
        </p>
      ) : (
        <fieldset className="booking-fieldset">
          <legend>Visit</legend>
          {types.map((type) => (
            <label className="booking-radio" key={type.id}>
              <input
                type="radio"
                name="visit-type"
                checked={choice.visitType === type.id}
                onChange={() => onChange({ ...choice, visitType: type.id })}
              />
              {type.name} <span className="booking-muted">({type.duration} min)</span>
            </label>
          ))}
        </fieldset>
      )}

      <div className="booking-field">
        <label htmlFor="booking-dentist">Dentist</label>
        <select
          id="booking-dentist"
          value={choice.dentistId ?? ''}
          onChange={(event) =>
            onChange({ ...choice, dentistId: event.target.value ? Number(event.target.value) : null })
          }
        >
          <option value="">Any dentist</option>
          {clinic.dentists.map((dentist) => (
            <option key={dentist.id} value={dentist.id}>
              {dentist.name}
            </option>
          ))}
        </select>
      </div>

      <div className="booking-field">
        <label htmlFor="booking-day">Day</label>
        <div className="booking-day">
          <button
            type="button"
            className="booking-button-secondary"
            onClick={() => setDate(shiftDay(choice.date, -1))}
            disabled={choice.date <= today}
          >
            Previous day
          </button>
          <input
            id="booking-day"
            type="date"
            min={today}
            max={lastDay}
            value={choice.date}
            required
            onChange={(event) => setDate(event.target.value)}
          />
          <button
            type="button"
            className="booking-button-secondary"
            onClick={() => setDate(shiftDay(choice.date, 1))}
            disabled={choice.date >= lastDay}
          >
            Next day
          </button>
        </div>
      </div>
    </div>
  );
}
