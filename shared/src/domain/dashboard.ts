import { z } from 'zod';
import { APPOINTMENT_STATUSES } from './constants';
import { appointmentSeriesPlaceSchema } from './seriesPlace';

/** The dashboard's calls (docs/product.md, Screens: Dashboard; API calls): stat cards, today's appointments, recent activity. */

export const STAT_CHANGE_TYPES = ['positive', 'negative'] as const;
export type StatChangeType = (typeof STAT_CHANGE_TYPES)[number];

/** One stat card: `change` is signed ('+3', '-1', '0'); `changeType` says whether that is good news. */
export const dashboardStatSchema = z.object({
  name: z.string(),
  value: z.number(),
  change: z.string(),
  changeType: z.enum(STAT_CHANGE_TYPES),
});
export type DashboardStat = z.infer<typeof dashboardStatSchema>;

export const DASHBOARD_STAT_NAMES = {
  todayAppointments: "Today's Appointments",
  pendingConfirmations: 'Pending Confirmations',
  totalPatients: 'Total Patients',
  activeDentists: 'Active Dentists',
} as const;

export const dashboardStatsSchema = z.object({ data: z.array(dashboardStatSchema) });

/** An appointment as the dashboard lists it (the appointment wire fields of docs/product.md, Records and their fields). */
export const dashboardAppointmentSchema = z.object({
  id: z.number().int(),
  patient: z.string(),
  patient_id: z.number().int(),
  phone: z.string(),
  dentist_id: z.number().int(),
  dentist_name: z.string(),
  date: z.string(),
  time: z.string(),
  /** Minutes; the visit holds its dentist's and its patient's time from `time` to `end_time`. */
  duration: z.number().int(),
  end_time: z.string(),
  treatment: z.string(),
  status: z.enum(APPOINTMENT_STATUSES),
  notes: z.string().nullable(),
  /** Booked outside the dentist's open hours by an admin or receptionist, who gave the reason. */
  outside_hours: z.boolean(),
  outside_hours_reason: z.string().nullable(),
  /** It overlapped another visit before overlaps were refused, and still does: move or cancel one. */
  overlapping: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Moves on with every visible change: sent back in If-Match (liveDesk.ts). */
  version: z.number().int(),
  /** Its series and place in it ("3 of 6"): null, or absent from older answers, outside a series. */
  series: appointmentSeriesPlaceSchema.nullable().optional(),
  /** The chair it holds from `time` to `end_time` and `turnover` minutes more (absent from older answers). */
  chair_id: z.number().int().optional(),
  chair_name: z.string().optional(),
  turnover: z.number().int().optional(),
  /** When the dentist is needed, in minutes from `time`; null (or absent) for the whole visit. */
  dentist_from: z.number().int().nullable().optional(),
  dentist_to: z.number().int().nullable().optional(),
  /** Booked at the desk or by the patient online (absent from older answers: the desk). */
  source: z.enum(['desk', 'online']).optional(),
  /** Who confirmed it: the desk or the patient online; null while it is not confirmed. */
  confirmed_by: z.enum(['desk', 'patient']).nullable().optional(),
});
export type DashboardAppointment = z.infer<typeof dashboardAppointmentSchema>;

export const TODAY_APPOINTMENTS_LIMIT_DEFAULT = 100;
export const TODAY_APPOINTMENTS_LIMIT_MAX = 1000;

export const todayAppointmentsQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int('limit is a whole number')
    .min(1, 'limit is at least 1')
    .max(TODAY_APPOINTMENTS_LIMIT_MAX, `limit is at most ${TODAY_APPOINTMENTS_LIMIT_MAX}`)
    .default(TODAY_APPOINTMENTS_LIMIT_DEFAULT),
});

export const todayAppointmentsSchema = z.object({ data: z.array(dashboardAppointmentSchema) });

export const ACTIVITY_LIMIT_DEFAULT = 10;
export const ACTIVITY_LIMIT_MAX = 50;

export const activityQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int('limit is a whole number')
    .min(1, 'limit is at least 1')
    .max(ACTIVITY_LIMIT_MAX, `limit is at most ${ACTIVITY_LIMIT_MAX}`)
    .default(ACTIVITY_LIMIT_DEFAULT),
});

/** One recorded change, newest first; `description` is a sentence a person can read. */
export const activityRecordSchema = z.object({
  id: z.number().int(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  user_name: z.string().nullable(),
  description: z.string(),
  created_at: z.string(),
});
export type ActivityRecord = z.infer<typeof activityRecordSchema>;

export const activityListSchema = z.object({ data: z.array(activityRecordSchema) });

/** '+3', '-1', '0'. */
export function signedChange(delta: number): string {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `${delta}`;
  return '0';
}
