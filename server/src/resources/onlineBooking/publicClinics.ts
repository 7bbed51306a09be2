import {
  addMinutesToClinicTime,
  DENTIST_NOT_ONLINE,
  horizonMessage,
  ONLINE_BOOKING_NOT_HERE,
  type PracticeSettings,
  type PublicClinic,
  type PublicFreeTimes,
  treatmentOfVisitType,
  VISIT_TYPE_NOT_ONLINE,
  visitTypeIdOf,
} from '@dental/shared/domain';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { addDays, clinicNow } from '../../db/clinicTime';
import { clinics, dentists } from '../../db/schema';
import { InvalidValue, NotFound } from '../../domain/errors';
import { dentistDaysColumns, freeTimesOf } from '../availability/openHours';
import { readSettings } from '../settings/settingsData';

/** A clinic whose booking page is on: who it is and its settings. */
export interface BookingClinic {
  clinicId: number;
  settings: PracticeSettings;
}

/**
 * The clinic behind a booking page's slug, when its online booking is on. An unknown slug and a
 * clinic that has it off answer the same, so the page tells nothing of which clinics exist.
 */
export async function bookingClinicOf(db: Database, slug: string): Promise<BookingClinic> {
  const [clinic] = await db.select({ id: clinics.id }).from(clinics).where(eq(clinics.slug, slug));
  if (clinic) {
    const settings = await readSettings(db, clinic.id);
    if (settings.onlineBooking.enabled) return { clinicId: clinic.id, settings };
  }
  throw new NotFound(ONLINE_BOOKING_NOT_HERE);
}

/** The active dentists a patient may choose, by name. */
function onlineDentists(db: Database, clinicId: number) {
  return db
    .select(dentistDaysColumns)
    .from(dentists)
    .where(and(eq(dentists.clinicId, clinicId), eq(dentists.status, 'active'), isNull(dentists.deletedAt)))
    .orderBy(asc(dentists.name), asc(dentists.id));
}

/** What the booking page shows first: the clinic, the visit types it offers online, its dentists, its rules. */
export async function publicClinic(
  db: Database,
  { clinicId, settings }: BookingClinic,
): Promise<PublicClinic> {
  const rules = settings.onlineBooking;
  const [clinic] = await db
    .select({ timeZone: clinics.timeZone })
    .from(clinics)
    .where(eq(clinics.id, clinicId));
  return {
    name: settings.practiceName,
    address: settings.address,
    phone: settings.phone,
    timeZone: clinic?.timeZone ?? settings.timeZone,
    visit_types: rules.visitTypes.map((type) => ({
      id: visitTypeIdOf(type.treatment),
      name: type.treatment,
      duration: settings.treatmentMinutes[type.treatment],
      new_patients: type.newPatients,
      returning_patients: type.returningPatients,
    })),
    dentists: (await onlineDentists(db, clinicId)).map((dentist) => ({ id: dentist.id, name: dentist.name })),
    rules: {
      notice_hours: rules.noticeHours,
      horizon_days: rules.horizonDays,
      cutoff_hours: rules.cutoffHours,
    },
  };
}

/**
 * The starts a patient may book on `date` for a visit type offered online: the desk's own rules
 * (open hours, lengths, the dentist's part, chairs and turnover) over the chairs bookable online, from
 * the clinic's notice on and within its horizon. Without a dentist, each start names the first
 * dentist free then, by name.
 */
export async function publicFreeTimes(
  db: Database,
  { clinicId, settings }: BookingClinic,
  query: { visit_type: string; date: string; dentist_id?: number },
): Promise<PublicFreeTimes> {
  const rules = settings.onlineBooking;
  const treatment = treatmentOfVisitType(query.visit_type);
  if (!treatment || !rules.visitTypes.some((type) => type.treatment === treatment)) {
    throw new InvalidValue(VISIT_TYPE_NOT_ONLINE, [{ field: 'visit_type', message: VISIT_TYPE_NOT_ONLINE }]);
  }
  const now = await clinicNow(db, clinicId);
  if (query.date > addDays(now.date, rules.horizonDays)) {
    const message = horizonMessage(rules.horizonDays);
    throw new InvalidValue(message, [{ field: 'date', message }]);
  }
  const all = await onlineDentists(db, clinicId);
  const chosen =
    query.dentist_id === undefined ? all : all.filter((dentist) => dentist.id === query.dentist_id);
  if (chosen.length === 0 && query.dentist_id !== undefined) {
    throw new InvalidValue(DENTIST_NOT_ONLINE, [{ field: 'dentist_id', message: DENTIST_NOT_ONLINE }]);
  }
  const earliest = addMinutesToClinicTime(now, rules.noticeHours * 60);
  const duration = settings.treatmentMinutes[treatment];
  const byTime = new Map<string, { time: string; dentist_id: number; dentist_name: string }>();
  for (const dentist of chosen) {
    const free = await freeTimesOf(db, clinicId, dentist, {
      date: query.date,
      treatment,
      bookableOnline: true,
      earliest,
    });
    for (const time of free.times) {
      if (!byTime.has(time)) byTime.set(time, { time, dentist_id: dentist.id, dentist_name: dentist.name });
    }
  }
  const times = [...byTime.values()]
    .sort((a, b) => a.time.localeCompare(b.time))
    .map((slot) => ({
      ...slot,
      end_time: addMinutesToClinicTime({ date: query.date, time: slot.time }, duration).time,
    }));
  return { date: query.date, times };
}
