import {
  APPOINTMENT_SEEKING_SORTS,
  type Appointment,
  type AppointmentListQuery,
  type AppointmentSort,
  appointmentSchema,
  dateCursorOf,
} from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import { GATHERED_MATCHES, pagePlanOf, type SeekPage, seekPage } from '../../db/cappedCount';
import { type Database, onOneConnectionEachCall, type Reader } from '../../db/client';
import { searchWordsOf } from '../patients/patientSearch';
import {
  BY_DATE_AND_TIME,
  countAppointments,
  readAppointments,
  readCountedAppointments,
  STILL_OVERLAPPING,
} from './appointmentRows';
import {
  fewPatients,
  filtersOn,
  matchedInDateOrder,
  pastCursor,
  patientsPart,
  searchCondition,
} from './appointmentSearch';

/**
 * The appointments' reads (docs/product.md, Appointments): a page of the list as its search, filters,
 * order and cursor plan it (appointmentSearch.ts), one visit, and the visits kept overlapping.
 */

export const APPOINTMENT_NOT_FOUND = 'Appointment not found';

const ORDERS: Record<AppointmentSort, SQL> = {
  date: BY_DATE_AND_TIME,
  '-date': sql`a.date desc, a.time desc, a.id desc`,
  patient: sql`a.patient_name, a.date, a.time, a.id`,
  '-patient': sql`a.patient_name desc, a.date, a.time, a.id`,
  dentist: sql`d.name, a.date, a.time, a.id`,
  '-dentist': sql`d.name desc, a.date, a.time, a.id`,
  status: sql`a.status, a.date, a.time, a.id`,
  '-status': sql`a.status desc, a.date, a.time, a.id`,
  created_at: sql`a.created_at, a.id`,
  '-created_at': sql`a.created_at desc, a.id desc`,
};
/** Orders by the dentist's name, which the appointments themselves do not hold. */
const DENTIST_NAME_ORDERS = new Set<AppointmentSort>(['dentist', '-dentist']);

/**
 * Filters go to the appointments indexes that lead with clinic_id (status, dentist, dentist+status,
 * patient, date, each then date and time, so pages come out in order); search in date order as
 * matchedInDateOrder says, in another order as searchCondition says. The total counts the same
 * rows, up to listCountCap, in the page's own statement (readCountedAppointments).
 *
 * In date order a page may start `after` the previous page's last row (its `next_cursor`): the
 * indexes seek there instead of stepping over the earlier pages' rows, and only the rows from there
 * on are counted, the earlier pages' added to them.
 */
async function readAppointmentList(
  db: Database,
  clinicId: number,
  query: AppointmentListQuery,
): Promise<SeekPage<Appointment>> {
  const sort = query.sort ?? 'date';
  const descending = sort === '-date';
  const plan = pagePlanOf(query);
  const { offset, cap } = plan;
  const words = query.search?.trim() ? await searchWordsOf(db, query.search) : null;
  let asked: Promise<number[] | null> | undefined;
  const few = () => {
    asked ??= fewPatients(db, clinicId, words ?? []);
    return asked;
  };
  const patients =
    words?.length && APPOINTMENT_SEEKING_SORTS.has(sort) ? await patientsPart(clinicId, words, few) : null;
  const matched =
    words && patients && (await matchedInDateOrder(db, clinicId, query, words, patients, descending));
  const cursorOf = APPOINTMENT_SEEKING_SORTS.has(sort) ? dateCursorOf : null;
  if (matched) {
    const direction = descending ? sql`desc` : sql`asc`;
    const inOrder = sql`date ${direction}, time ${direction}, id ${direction}`;
    const ids = sql`select id from ${GATHERED_MATCHES} order by ${inOrder} limit ${query.limit} offset ${offset}`;
    const page = await readCountedAppointments(
      db,
      {
        clinicId,
        where: sql`a.clinic_id = ${clinicId} and a.id in (${ids})`,
        limit: query.limit,
        offset: 0,
        orderBy: ORDERS[sort],
      },
      { matches: matched, offset, cap, gatherInOrder: inOrder },
    );
    return seekPage(page, plan, cursorOf);
  }
  const conditions: SQL[] = [
    sql`a.clinic_id = ${clinicId}`,
    ...filtersOn(sql`a`, query),
    ...pastCursor(sql`a`, sql`a.id`, query.after, descending),
  ];
  if (words) conditions.push(await searchCondition(db, clinicId, words, few));
  const where = sql.join(conditions, sql` and `);
  const page = await readCountedAppointments(
    db,
    {
      clinicId,
      where,
      limit: query.limit,
      offset,
      orderBy: ORDERS[sort],
      byDentistName: DENTIST_NAME_ORDERS.has(sort),
    },
    { matches: sql`select 1 from appointments a where ${where}`, offset, cap },
  );
  return seekPage(page, plan, cursorOf);
}

/** A page of the list (readAppointmentList), its statements on one connection. */
export const listAppointments = onOneConnectionEachCall(readAppointmentList);

export async function findAppointment(
  db: Reader,
  clinicId: number,
  appointmentId: number,
): Promise<Appointment | null> {
  const [appointment] = await readAppointments(
    db,
    clinicId,
    sql`a.clinic_id = ${clinicId} and a.id = ${appointmentId}`,
    1,
  );
  return appointment ?? null;
}

/** One visit as its routes read it (rowRoutes): its wire schema, its read and its 404. */
export const visitLookup = {
  schema: appointmentSchema,
  find: findAppointment,
  notFound: APPOINTMENT_NOT_FOUND,
};

/** The live visits kept overlapping (overlap_group, migration 0015), in date order, and how many. */
export async function listOverlapping(
  db: Database,
  clinicId: number,
  limit: number,
): Promise<{ data: Appointment[]; total: number }> {
  const kept = sql`a.clinic_id = ${clinicId} and ${STILL_OVERLAPPING}`;
  const data = await readAppointments(db, clinicId, kept, limit);
  const total = await countAppointments(db, kept);
  return { data, total };
}
