import {
  type ActivityRecord,
  DASHBOARD_STAT_NAMES,
  type DashboardAppointment,
  type DashboardStat,
  SECURITY_ACTIONS,
  signedChange,
} from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { addDays } from '../../db/clinicTime';
import { liveDentist } from '../../db/liveDentists';
import { dentists } from '../../db/schema';
import { isoTimestamp } from '../../db/utcTimestamps';
import { readAppointments } from '../appointments/appointmentRows';

/** Figures behind the stat cards; each count is an index range scan (see the query). */
export interface StatFigures {
  today: number;
  sameDayLastWeek: number;
  pendingFromToday: number;
  pendingNextWeek: number;
  pendingPreviousWeek: number;
  activePatients: number;
  newPatientsLast30: number;
  newPatientsPrevious30: number;
  activeDentists: number;
  newDentistsLast30: number;
}

const LIVE_STATUSES = sql`('pending', 'confirmed', 'completed')`;

/**
 * Appointment and patient counts are sums of the counters the database keeps (appointment_day_counts
 * and patient_status_counts, migration 0009): a few rows per figure, whatever the clinic's history.
 * Dentists count on their primary key; patients who joined in the last 30 days and the 30 before
 * are two ranges of patients_created_idx (clinic_id, created_at), read from the index alone. One
 * statement: the dashboard is every screen's first call.
 */
export async function readStatFigures(db: Database, clinicId: number, today: string): Promise<StatFigures> {
  const lastWeek = addDays(today, -7);
  const nextWeek = addDays(today, 7);
  const days = (where: SQL) =>
    sql`(select coalesce(sum(total), 0) from appointment_day_counts where clinic_id = ${clinicId} and ${where})`;
  const liveDentists = liveDentist(clinicId, undefined, { active: true });
  const result = await db.execute(sql`
    select
      ${days(sql`status in ${LIVE_STATUSES} and date = ${today}::date`)} as "today",
      ${days(sql`status in ${LIVE_STATUSES} and date = ${lastWeek}::date`)} as "sameDayLastWeek",
      ${days(sql`status = 'pending' and date >= ${today}::date`)} as "pendingFromToday",
      ${days(sql`status = 'pending' and date >= ${today}::date and date < ${nextWeek}::date`)} as "pendingNextWeek",
      ${days(sql`status = 'pending' and date >= ${lastWeek}::date and date < ${today}::date`)} as "pendingPreviousWeek",
      (select coalesce(sum(total), 0) from patient_status_counts
        where clinic_id = ${clinicId} and status = 'active') as "activePatients",
      (select count(*) from patients where clinic_id = ${clinicId}
        and created_at >= now() - interval '30 days') as "newPatientsLast30",
      (select count(*) from patients where clinic_id = ${clinicId}
        and created_at >= now() - interval '60 days' and created_at < now() - interval '30 days')
        as "newPatientsPrevious30",
      (select count(*) from ${dentists} where ${liveDentists}) as "activeDentists",
      (select count(*) from ${dentists}
        where ${liveDentists} and created_at >= now() - interval '30 days')
        as "newDentistsLast30"
  `);
  const row = result.rows[0] as Record<string, string | number | null> | undefined;
  const figure = (key: string) => Number(row?.[key] ?? 0);
  return {
    today: figure('today'),
    sameDayLastWeek: figure('sameDayLastWeek'),
    pendingFromToday: figure('pendingFromToday'),
    pendingNextWeek: figure('pendingNextWeek'),
    pendingPreviousWeek: figure('pendingPreviousWeek'),
    activePatients: figure('activePatients'),
    newPatientsLast30: figure('newPatientsLast30'),
    newPatientsPrevious30: figure('newPatientsPrevious30'),
    activeDentists: figure('activeDentists'),
    newDentistsLast30: figure('newDentistsLast30'),
  };
}

/** The stat cards; `changeType` says whether the change is good news. */
export function statCards(figures: StatFigures): DashboardStat[] {
  const todayDelta = figures.today - figures.sameDayLastWeek;
  // Fewer appointments waiting for confirmation is the better direction.
  const pendingDelta = figures.pendingNextWeek - figures.pendingPreviousWeek;
  return [
    {
      name: DASHBOARD_STAT_NAMES.todayAppointments,
      value: figures.today,
      change: signedChange(todayDelta),
      changeType: todayDelta >= 0 ? 'positive' : 'negative',
    },
    {
      name: DASHBOARD_STAT_NAMES.pendingConfirmations,
      value: figures.pendingFromToday,
      change: signedChange(pendingDelta),
      changeType: pendingDelta <= 0 ? 'positive' : 'negative',
    },
    {
      name: DASHBOARD_STAT_NAMES.totalPatients,
      value: figures.activePatients,
      change: signedChange(figures.newPatientsLast30),
      changeType: figures.newPatientsLast30 >= figures.newPatientsPrevious30 ? 'positive' : 'negative',
    },
    {
      name: DASHBOARD_STAT_NAMES.activeDentists,
      value: figures.activeDentists,
      change: signedChange(figures.newDentistsLast30),
      changeType: 'positive',
    },
  ];
}

/** The day's appointments in time order, on appointments_date_idx (clinic_id, date, time). */
export function readDayAppointments(
  db: Database,
  clinicId: number,
  date: string,
  limit: number,
): Promise<DashboardAppointment[]> {
  return readAppointments(
    db,
    clinicId,
    sql`a.clinic_id = ${clinicId} and a.date = ${date}::date`,
    limit,
    0,
    sql`a.time, a.id`,
  );
}

/** Sign-ins, refused requests and records opened are the security log, not the clinic's activity. */
const SECURITY_ACTION_LIST = sql`(${sql.join(
  SECURITY_ACTIONS.map((action) => sql`${action}`),
  sql`, `,
)})`;

interface ActivityRow {
  id: number;
  action: string;
  entity: string;
  entity_id: string | null;
  details: unknown;
  created_at: string | Date;
  user_id: number | null;
  user_name: string | null;
}

const VERBS: Record<string, string> = {
  create: 'created',
  created: 'created',
  insert: 'created',
  update: 'updated',
  updated: 'updated',
  delete: 'deleted',
  deleted: 'deleted',
  status_change: 'changed the status of',
  update_status: 'changed the status of',
  status: 'changed the status of',
  activate: 'activated',
  deactivate: 'deactivated',
  module_enabled: 'enabled',
  module_disabled: 'disabled',
  book: 'booked',
  cancel: 'cancelled',
  confirm: 'confirmed',
  call_back_requested: 'asked to be called about',
};

function detailText(details: unknown, key: string): string | null {
  if (!details || typeof details !== 'object') return null;
  const value = (details as Record<string, unknown>)[key];
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function entityPhrase(row: ActivityRow): string {
  const entity = row.entity.replace(/_/g, ' ');
  if (row.entity === 'settings') return 'the practice settings';
  if (row.entity === 'module') return `the ${row.entity_id ?? ''} module`.replace(/\s+/g, ' ');
  const named = detailText(row.details, 'name') ?? detailText(row.details, 'patient');
  const base = row.entity_id ? `${entity} #${row.entity_id}` : entity;
  return named ? `${base} (${named})` : base;
}

/** 'Alex Morgan created appointment #12', 'Riley Chen changed the status of appointment #7 to confirmed'. */
export function describeActivity(row: ActivityRow): string {
  // A public write of online booking names no user: its record says who (docs/product.md, Online booking).
  const byPatient = row.user_id === null && detailText(row.details, 'by') === 'patient online';
  const actor =
    row.user_name ?? (byPatient ? 'A patient online' : row.user_id === null ? 'The system' : 'A former user');
  const verb = VERBS[row.action] ?? row.action.replace(/_/g, ' ');
  const status = detailText(row.details, 'status') ?? detailText(row.details, 'to');
  const outcome = status && verb === 'changed the status of' ? ` to ${status}` : '';
  return `${actor} ${verb} ${entityPhrase(row)}${outcome}`;
}

/** The newest records first, on audit_log_recent_idx (clinic_id, created_at desc). */
export async function readActivity(db: Database, clinicId: number, limit: number): Promise<ActivityRecord[]> {
  const result = await db.execute(sql`
    select l.id, l.action, l.entity, l.entity_id, l.details, l.created_at, l.user_id, u.name as user_name
    from audit_log l
    left join users u on u.clinic_id = l.clinic_id and u.id = l.user_id
    where l.clinic_id = ${clinicId} and l.action not in ${SECURITY_ACTION_LIST}
    order by l.created_at desc, l.id desc
    limit ${limit}
  `);
  return (result.rows as unknown as ActivityRow[]).map((row) => ({
    id: Number(row.id),
    action: row.action,
    entity: row.entity,
    entity_id: row.entity_id,
    user_name: row.user_name,
    description: describeActivity(row),
    created_at: isoTimestamp(row.created_at),
  }));
}
