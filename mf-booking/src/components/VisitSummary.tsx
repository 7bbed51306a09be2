import { dayLabel } from './visitFormat';

export interface VisitFacts {
  treatment: string;
  date: string;
  time: string;
  end_time: string;
  dentist_name: string;
}

/** A visit as the patient needs it: what, when (start to end) and with whom. */
export function VisitSummary({ visit, status }: { visit: VisitFacts; status?: string }) {
  return (
    <dl className="booking-summary">
      <dt>Visit</dt>
      <dd>{visit.treatment}</dd>
      <dt>Day</dt>
      <dd>{dayLabel(visit.date)}</dd>
      <dt>Time</dt>
      <dd>
        {visit.time} to {visit.end_time}
      </dd>
      <dt>Dentist</dt>
      <dd>{visit.dentist_name}</dd>
      {status && (
        <>
          <dt>Status</dt>
          <dd>{status}</dd>
        </>
      )}
    </dl>
  );
}
