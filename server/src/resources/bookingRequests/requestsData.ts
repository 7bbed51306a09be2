import {
  BOOKING_REQUEST_CLOSED,
  BOOKING_REQUEST_NOT_FOUND,
  type BookingRequest,
  type BookingRequestsQuery,
  NOT_A_CANDIDATE,
  REQUEST_KIND_MISMATCH,
} from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import { pageWithTotal } from '../../db/cappedCount';
import type { Database, Reader, Transaction } from '../../db/client';
import { EXCLUSION_VIOLATION, violated } from '../../db/databaseErrors';
import { appointments, bookingRequests, patients } from '../../db/schema';
import { Conflict, InvalidValue, NotFound } from '../../domain/errors';
import { type Actor, recordActorAudit } from '../actorAudit';

/** The clinic's records sharing a request's e-mail or phone (digits), the booked patient aside. */
const candidatesOf = (request: SQL) => sql`coalesce((
  select json_agg(json_build_object('id', p.id, 'name', p.name, 'phone', p.phone,
      'date_of_birth', p.date_of_birth::text) order by p.name, p.id)
  from patients p
  where p.clinic_id = ${request}.clinic_id and p.id <> coalesce(${request}.patient_id, 0)
    and (lower(p.email) = lower(${request}.contact ->> 'email')
      or regexp_replace(p.phone, '\\D', '', 'g') = regexp_replace(${request}.contact ->> 'phone', '\\D', '', 'g'))
), '[]'::json)`;
type SQL = ReturnType<typeof sql>;

interface RequestRow {
  id: number | string;
  kind: BookingRequest['kind'];
  state: BookingRequest['state'];
  closed_how: BookingRequest['closed_how'];
  created_at: string | Date;
  closed_at: string | Date | null;
  contact: BookingRequest['contact'];
  patient_id: number | string | null;
  appointment: BookingRequest['appointment'];
  freed: BookingRequest['freed'];
  candidates: BookingRequest['candidates'];
}

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

function toRequest(row: RequestRow): BookingRequest {
  return {
    id: Number(row.id),
    kind: row.kind,
    state: row.state,
    closed_how: row.closed_how,
    created_at: iso(row.created_at) as string,
    closed_at: iso(row.closed_at),
    contact: row.contact,
    appointment: row.appointment,
    freed: row.freed,
    patient_id: row.patient_id === null ? null : Number(row.patient_id),
    candidates: row.kind === 'unmatched' && row.state === 'open' ? row.candidates : [],
  };
}

const requestSelect = (clinicId: number) => sql`
  select r.id, r.kind, r.state, r.closed_how, r.created_at, r.closed_at, r.contact, r.patient_id,
    case when a.id is null then null else json_build_object('id', a.id, 'date', a.date::text, 'time', a.time,
      'treatment', a.treatment, 'dentist_id', a.dentist_id, 'dentist_name', d.name, 'duration', a.duration,
      'status', a.status) end as appointment,
    case when r.freed is null then null else r.freed || jsonb_build_object('dentist_name', fd.name) end as freed,
    ${candidatesOf(sql.raw('r'))} as candidates
  from booking_requests r
  left join appointments a on a.clinic_id = r.clinic_id and a.id = r.appointment_id
  left join dentists d on d.clinic_id = a.clinic_id and d.id = a.dentist_id
  left join dentists fd on fd.clinic_id = r.clinic_id and fd.id = (r.freed ->> 'dentist_id')::int
  where r.clinic_id = ${clinicId}`;

/** The clinic's requests in one state, newest first, paged. */
export async function listRequests(
  db: Reader,
  clinicId: number,
  query: { page: number; limit: number; state: NonNullable<BookingRequestsQuery['state']> },
): Promise<{ data: BookingRequest[]; total: number }> {
  const offset = (query.page - 1) * query.limit;
  const { data, total } = await pageWithTotal(
    { offset, limit: query.limit },
    async () => {
      const result = await db.execute(sql`${requestSelect(clinicId)} and r.state = ${query.state}
        order by r.created_at desc, r.id desc limit ${query.limit} offset ${offset}`);
      return (result.rows as unknown as RequestRow[]).map(toRequest);
    },
    async () => {
      const counted = await db.execute(
        sql`select count(*)::int as total from booking_requests where clinic_id = ${clinicId} and state = ${query.state}`,
      );
      return Number((counted.rows[0] as { total: number | string }).total);
    },
  );
  return { data, total };
}

/** One request as listed. */
export async function findRequest(db: Reader, clinicId: number, id: number): Promise<BookingRequest | null> {
  const result = await db.execute(sql`${requestSelect(clinicId)} and r.id = ${id}`);
  const row = result.rows[0] as RequestRow | undefined;
  return row ? toRequest(row) : null;
}

/** The open request a desk action closes, locked; refused when it is closed or of the other kind. */
async function openRequest(tx: Transaction, clinicId: number, id: number, kind: BookingRequest['kind']) {
  const [row] = await tx
    .select()
    .from(bookingRequests)
    .where(and(eq(bookingRequests.clinicId, clinicId), eq(bookingRequests.id, id)))
    .for('update');
  if (!row) throw new NotFound(BOOKING_REQUEST_NOT_FOUND);
  if (row.state !== 'open') throw new Conflict(BOOKING_REQUEST_CLOSED);
  if (row.kind !== kind) throw new Conflict(REQUEST_KIND_MISMATCH);
  return row;
}

async function close(
  tx: Transaction,
  actor: Actor,
  id: number,
  how: NonNullable<BookingRequest['closed_how']>,
  details: Record<string, unknown> = {},
) {
  await tx
    .update(bookingRequests)
    .set({ state: 'closed', closedHow: how, closedBy: actor.userId, closedAt: new Date() })
    .where(and(eq(bookingRequests.clinicId, actor.clinicId), eq(bookingRequests.id, id)));
  await recordActorAudit(tx, actor, {
    action: 'update',
    entity: 'booking_request',
    entityId: id,
    details: { closed: how, ...details },
  });
}

/**
 * An unmatched online visit is the existing patient's after all: the visit moves to them, and the
 * record made from the request is removed when nothing else holds it.
 */
export async function linkRequest(
  db: Database,
  actor: Actor,
  id: number,
  patientId: number,
): Promise<BookingRequest> {
  try {
    await db.transaction(async (tx) => {
      const request = await openRequest(tx, actor.clinicId, id, 'unmatched');
      const found = (await findRequest(tx, actor.clinicId, id)) as BookingRequest;
      if (!found.candidates.some((candidate) => candidate.id === patientId)) {
        throw InvalidValue.of('patient_id', NOT_A_CANDIDATE);
      }
      if (request.appointmentId !== null) {
        await tx
          .update(appointments)
          .set({ patientId, updatedAt: new Date() })
          .where(and(eq(appointments.clinicId, actor.clinicId), eq(appointments.id, request.appointmentId)));
      }
      const made = request.patientId;
      await tx
        .update(bookingRequests)
        .set({ patientId })
        .where(and(eq(bookingRequests.clinicId, actor.clinicId), eq(bookingRequests.id, id)));
      if (made !== null) {
        // The record made from the request goes when no visit or other row holds it; else it stays.
        await tx
          .transaction(async (inner) => {
            const removed = await inner
              .delete(patients)
              .where(
                and(
                  eq(patients.clinicId, actor.clinicId),
                  eq(patients.id, made),
                  sql`not exists (select 1 from appointments a where a.clinic_id = ${actor.clinicId} and a.patient_id = ${made})`,
                ),
              )
              .returning({ id: patients.id });
            if (removed.length)
              await recordActorAudit(inner, actor, {
                action: 'delete',
                entity: 'patient',
                entityId: made,
                details: { reason: 'linked an online booking to an existing patient' },
              });
          })
          .catch(() => undefined);
      }
      await close(tx, actor, id, 'linked', { patient_id: patientId, appointment_id: request.appointmentId });
    });
  } catch (error) {
    if (violated(error, [EXCLUSION_VIOLATION], '')) {
      throw new Conflict('That patient already has a visit at this time: move one of them first');
    }
    throw error;
  }
  return (await findRequest(db, actor.clinicId, id)) as BookingRequest;
}

/** An unmatched online visit is a new patient's indeed: the record made from the request stays. */
export async function keepAsNewPatient(db: Database, actor: Actor, id: number): Promise<BookingRequest> {
  await db.transaction(async (tx) => {
    await openRequest(tx, actor.clinicId, id, 'unmatched');
    await close(tx, actor, id, 'new_patient');
  });
  return (await findRequest(db, actor.clinicId, id)) as BookingRequest;
}

/** A patient who asked to be called has been called. */
/** Closes a time freed online: the desk has offered it to the waitlist, or let it be. */
export async function freedTimeDone(db: Database, actor: Actor, id: number): Promise<BookingRequest> {
  await db.transaction(async (tx) => {
    await openRequest(tx, actor.clinicId, id, 'freed');
    await close(tx, actor, id, 'done');
  });
  return (await findRequest(db, actor.clinicId, id)) as BookingRequest;
}

export async function calledBack(db: Database, actor: Actor, id: number): Promise<BookingRequest> {
  await db.transaction(async (tx) => {
    await openRequest(tx, actor.clinicId, id, 'call_back');
    await close(tx, actor, id, 'called_back');
  });
  return (await findRequest(db, actor.clinicId, id)) as BookingRequest;
}
