import type { HeldTime } from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { Reader } from '../../db/client';

/** The times held on the booking page on a day, live ones only, in the day's order. */
export async function heldTimesOn(db: Reader, clinicId: number, date: string): Promise<HeldTime[]> {
  const found = await db.execute<HeldTime>(sql`
    select h.id, h.date::text as date, h.time,
           to_char(h.time::time + make_interval(mins => h.duration), 'HH24:MI') as end_time,
           h.duration, h.treatment, h.dentist_id, d.name as dentist_name, h.chair_id,
           to_char(h.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expires_at
      from booking_holds h
      join dentists d on d.clinic_id = h.clinic_id and d.id = h.dentist_id
     where h.clinic_id = ${clinicId} and h.date = ${date} and h.expires_at > now()
     order by h.time, h.id`);
  return found.rows;
}
