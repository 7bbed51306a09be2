import type { Appointment, AppointmentStatus } from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import { type CappedTotal, readCountedPage } from '../../db/cappedCount';
import { type Reader, writesJsonForTheApi } from '../../db/client';
import { isoFromUtcText, isoText, utcText } from '../../db/utcTimestamps';
import { JsonRows } from '../../plugins/responseSerialization';

interface AppointmentRow {
  id: number | string;
  patient: string;
  patient_id: number | string;
  phone: string;
  dentist_id: number | string;
  dentist_name: string;
  date: string;
  time: string;
  duration: number | string;
  end_time: string;
  treatment: string;
  status: AppointmentStatus;
  notes: string | null;
  outside_hours: boolean;
  outside_hours_reason: string | null;
  overlapping: boolean;
  /** The UTC time as PostgreSQL writes it (utcText). */
  created_at: string;
  updated_at: string;
  version: number | string;
  series: { id: number | string; position: number | string; size: number | string } | null;
  chair_id: number | string;
  chair_name: string;
  turnover: number | string;
  dentist_from: number | string | null;
  dentist_to: number | string | null;
  source: 'desk' | 'online';
  confirmed_by: 'desk' | 'patient' | null;
}

const numberOrNull = (value: number | string | null): number | null =>
  value === null ? null : Number(value);

function toAppointment(row: AppointmentRow): Appointment {
  return {
    id: Number(row.id),
    patient: row.patient,
    patient_id: Number(row.patient_id),
    phone: row.phone,
    dentist_id: Number(row.dentist_id),
    dentist_name: row.dentist_name,
    date: row.date,
    time: row.time,
    duration: Number(row.duration),
    end_time: row.end_time,
    treatment: row.treatment,
    status: row.status,
    notes: row.notes,
    outside_hours: row.outside_hours,
    outside_hours_reason: row.outside_hours_reason,
    overlapping: row.overlapping,
    created_at: isoFromUtcText(row.created_at),
    updated_at: isoFromUtcText(row.updated_at),
    version: Number(row.version),
    series: row.series
      ? { id: Number(row.series.id), position: Number(row.series.position), size: Number(row.series.size) }
      : null,
    chair_id: Number(row.chair_id),
    chair_name: row.chair_name,
    turnover: Number(row.turnover),
    dentist_from: numberOrNull(row.dentist_from),
    dentist_to: numberOrNull(row.dentist_to),
    source: row.source,
    confirmed_by: row.confirmed_by,
  };
}

export const BY_DATE_AND_TIME = sql`a.date, a.time, a.id`;

/**
 * The visit `a`'s series and its place among the series' visits on record ("3 of 6"), counted
 * from appointments_series_idx; null outside a series.
 */
const SERIES_PLACE = sql`(case when a.series_id is null then null else (
  select json_build_object('id', a.series_id,
    'position', count(*) filter (where s.series_position <= a.series_position), 'size', count(*))
  from appointments s where s.clinic_id = a.clinic_id and s.series_id = a.series_id) end)`;

/**
 * The live visit `a` is of a kept overlap group (migration 0015) that still holds another live visit:
 * once the others are moved or cancelled, it overlaps nothing and is no longer listed.
 */
export const STILL_OVERLAPPING = sql`(a.overlap_group is not null and a.status <> 'cancelled' and exists (
  select 1 from appointments kept where kept.clinic_id = a.clinic_id and kept.overlap_group = a.overlap_group
    and kept.id <> a.id and kept.status <> 'cancelled'))`;

/**
 * Appointments in their wire shape (docs/product.md, Records and their fields): `where` on the appointments table `a`, in the given
 * order (which may read the dentist's name `d.name`, see PageOrder). Every list of appointments in
 * the API reads through here, so an appointment looks the same wherever it is answered. The
 * patient's name and phone are the appointment's own copy, kept by the database's triggers
 * (migration 0013): a month of 500 visits probed the patients 500 times, half of its read.
 *
 * The page is cut from the appointments alone (or, in the dentists' name order, from each
 * dentist's) and only its rows are joined: a deep page skips index entries, not joined rows.
 *
 * The dentist's name is looked up in the clinic's dentists, gathered once (a materialized CTE, so
 * no plan re-reads them per row) into two arrays that one aggregate step fills from the same rows,
 * position for position. The statement is prepared once per connection, and PostgreSQL's generic
 * plan (it expects one appointment) probed the dentists table for every row, by a lateral lookup
 * or a plain join alike: a month of 490 visits took 3.2-4.2 ms that way, 1.1-1.8 ms with the arrays.
 */
export async function readAppointments(
  db: Reader,
  ...selection: AppointmentSelection
): Promise<Appointment[]> {
  const result = await db.execute(selectionQuery(selection, false));
  return (result.rows as unknown as AppointmentRow[]).map(toAppointment);
}

/**
 * The same appointments as readAppointments, for an answer that sends them as they are: on a
 * PostgreSQL server each is written as its JSON by the database (row_to_json, in the same field
 * order, writesJsonForTheApi), elsewhere they are read as rows. A dentist's month of 490 visits cost
 * the API's one thread 3.2 ms to parse as 6,000 fields and write again, and 1.5 ms as JSON, while
 * PostgreSQL's share (on its own processes) went from 2.3 to 3.2 ms.
 */
export async function readAppointmentsToSend(
  db: Reader,
  ...selection: AppointmentSelection
): Promise<Appointment[] | JsonRows<Appointment>> {
  if (!writesJsonForTheApi(db)) return readAppointments(db, ...selection);
  const result = await db.execute(selectionQuery(selection, true));
  return new JsonRows(result.rows.map((row) => (row as { appointment: string }).appointment));
}

/** Which appointments: `where` on the appointments table `a`, a page of it, in an order. */
type AppointmentSelection = [
  clinicId: number,
  where: SQL,
  limit: number,
  offset?: number,
  orderBy?: SQL,
  options?: PageOrder,
];

function selectionQuery(
  [clinicId, where, limit, offset = 0, orderBy = BY_DATE_AND_TIME, options = {}]: AppointmentSelection,
  asJson: boolean,
): SQL {
  return selectAppointments(clinicId, where, limit, offset, orderBy, { ...options, asJson });
}

/**
 * A page of a list (readAppointments) and its total up to `list.cap` (listCountCap), in one
 * statement (readCountedPage): `list.matches` selects the list's rows, `list.offset` is where the
 * page starts in them (the page's own offset may be 0 when `where` has already cut it).
 */
export async function readCountedAppointments(
  db: Reader,
  page: { clinicId: number; where: SQL; limit: number; offset: number; orderBy: SQL } & PageOrder,
  list: { matches: SQL; offset: number; cap: number; gatherInOrder?: SQL },
): Promise<{ data: Appointment[] } & CappedTotal> {
  const { rows, ...counted } = await readCountedPage(db, list, async (countColumn, withMatches) => {
    const query = selectAppointments(
      page.clinicId,
      page.where,
      page.limit,
      page.offset,
      page.orderBy,
      { ...page, withMatches },
      countColumn,
    );
    return (await db.execute(query)).rows as unknown as AppointmentRow[];
  });
  return { data: rows.map(toAppointment), ...counted };
}

interface PageOrder {
  /** An order by the dentist's name (`d.name`) walks the clinic's dentists one by one. */
  byDentistName?: boolean;
  /** `where` holds one dentist's appointments only: their name is read once, not looked up per row. */
  dentistId?: number;
  /** A CTE the statement defines for `where` to read (readCountedPage's gathered matches). */
  withMatches?: SQL;
}

interface Written extends PageOrder {
  /** Each row one column `appointment`, its JSON text (readAppointmentsToSend). */
  asJson?: boolean;
}

function selectAppointments(
  clinicId: number,
  where: SQL,
  limit: number,
  offset: number,
  orderBy: SQL,
  options: Written,
  extraColumn?: SQL,
): SQL {
  // In the dentists' name order, a page holds at most `offset + limit` appointments of any one
  // dentist, their first in date order: each dentist's are cut from appointments_dentist_date_idx
  // and only those are sorted, where sorting the clinic's million appointments took a second.
  const source = options.byDentistName
    ? sql`(select a.* from dentists pd cross join lateral (
          select * from appointments a where a.dentist_id = pd.id and ${where}
          order by ${BY_DATE_AND_TIME} limit ${offset + limit}
        ) as a where pd.clinic_id = ${clinicId}) as a`
    : sql`(select * from appointments a where ${where} order by ${orderBy} limit ${limit} offset ${offset}) as a`;
  const paging = options.byDentistName
    ? sql`order by ${orderBy} limit ${limit} offset ${offset}`
    : sql`order by ${orderBy}`;
  // One dentist's month of 490 visits spent a tenth of its read finding the same name in the array.
  const dentistNames =
    options.dentistId === undefined
      ? {
          gathered: sql`clinic_dentists as materialized (
            select array_agg(dentist.id) as ids, array_agg(dentist.name) as names
            from dentists dentist where dentist.clinic_id = ${clinicId}
          )`,
          joined: sql`cross join clinic_dentists cross join lateral (
            select clinic_dentists.names[array_position(clinic_dentists.ids, a.dentist_id)] as name
          ) d`,
        }
      : {
          gathered: sql`the_dentist as materialized (
            select dentist.name from dentists dentist
            where dentist.clinic_id = ${clinicId} and dentist.id = ${options.dentistId}
          )`,
          joined: sql`cross join the_dentist d`,
        };
  /** The wire shape's fields, in its order. */
  const fields = (timestamp: (column: SQL) => SQL) => sql`
    a.id, a.patient_name as patient, a.patient_id, a.patient_phone as phone, a.dentist_id, d.name as dentist_name,
    a.date::text as date, a.time, a.duration,
    a.end_time,
    a.treatment, a.status, a.notes, a.outside_hours, a.outside_hours_reason,
    ${STILL_OVERLAPPING} as overlapping,
    ${timestamp(sql`a.created_at`)} as created_at, ${timestamp(sql`a.updated_at`)} as updated_at,
    a.version, ${SERIES_PLACE} as series,
    a.chair_id, clinic_chairs.names[array_position(clinic_chairs.ids, a.chair_id)] as chair_name,
    a.turnover, a.dentist_from, a.dentist_to, a.source, a.confirmed_by`;
  // As JSON, the fields are a row of their own beside each appointment, so the order stays the
  // statement's own `order by`.
  const selected = options.asJson
    ? {
        list: sql`row_to_json(appointment)::text as appointment`,
        lateral: sql`cross join lateral (select ${fields(isoText)}) as appointment`,
      }
    : { list: sql`${fields(utcText)} ${extraColumn ? sql`, ${extraColumn}` : sql``}`, lateral: sql`` };
  return sql`
    with ${options.withMatches ? sql`${options.withMatches}, ` : sql``}${dentistNames.gathered},
    clinic_chairs as materialized (
      select array_agg(chair.id) as ids, array_agg(chair.name) as names
      from chairs chair where chair.clinic_id = ${clinicId}
    )
    select ${selected.list}
    from ${source}
    ${dentistNames.joined}
    cross join clinic_chairs
    ${selected.lateral}
    ${paging}
  `;
}

/** How many appointments `where` (on the appointments table `a` alone) matches. */
export async function countAppointments(db: Reader, where: SQL): Promise<number> {
  const result = await db.execute(sql`select count(*) as total from appointments a where ${where}`);
  return Number((result.rows[0] as { total?: string | number } | undefined)?.total ?? 0);
}
