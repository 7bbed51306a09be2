import {
  addMinutesToClinicTime,
  DENTIST_NOT_ONLINE,
  horizonMessage,
  ONLINE_BOOKING_NOT_HERE,
  type PracticeSettings,
  type PublicClinic,
  type PublicFreeTimes,
  type Treatment,
  treatmentOfVisitType,
  VISIT_TYPE_NOT_ONLINE,
  visitTypeIdOf,
} from '@dental/shared/domain';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Database, Reader } from '../../db/client';
import { addDays, clinicNow } from '../../db/clinicTime';
import { clinics, dentists } from '../../db/schema';
import { InvalidValue, NotFound } from '../../domain/errors';
import { dentistDaysColumns, freeTimesOfDentists } from '../availability/openHours';
import { moduleOn } from '../modules/moduleSwitches';
import { readSettings } from '../settings/settingsData';

/** A clinic whose booking page is on: who it is and its settings. */
export interface BookingClinic {
  clinicId: number;
  settings: PracticeSettings;
}

/**
 * The clinic behind a booking page's slug, when its online booking is on (the setting, and the
 * booking module not switched off on the Modules page). An unknown slug and a clinic that has it off
 * answer the same, so the page tells nothing of which clinics exist.
 */
export async function bookingClinicOf(db: Database, slug: string): Promise<BookingClinic> {
  const [clinic] = await db.select({ id: clinics.id }).from(clinics).where(eq(clinics.slug, slug));
  if (clinic) {
    const settings = await readSettings(db, clinic.id);
    if (settings.onlineBooking.enabled && (await moduleOn(db, clinic.id, 'booking')))
      return { clinicId: clinic.id, settings };
  }
  throw new NotFound(ONLINE_BOOKING_NOT_HERE);
}

/** Whether a booking page is open, for its HTML page's status. */
export async function bookingPageOpen(db: Database, slug: string): Promise<boolean> {
  try {
    await bookingClinicOf(db, slug);
    return true;
  } catch (error) {
    if (error instanceof NotFound) return false;
    throw error;
  }
}

/** The active dentists a patient may choose, by name. */
function onlineDentists(db: Reader, clinicId: number) {
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
  return {
    name: settings.practiceName,
    address: settings.address,
    phone: settings.phone,
    timeZone: settings.timeZone,
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

/** A visit type's treatment, when the clinic offers it online; otherwise refused naming `field`. */
export function onlineTreatment(settings: PracticeSettings, visitTypeId: string, field: string): Treatment {
  const treatment = treatmentOfVisitType(visitTypeId);
  if (!treatment || !settings.onlineBooking.visitTypes.some((type) => type.treatment === treatment)) {
    throw new InvalidValue(VISIT_TYPE_NOT_ONLINE, [{ field, message: VISIT_TYPE_NOT_ONLINE }]);
  }
  return treatment;
}

/** A start a patient may take, with the dentist and chair a booking would then have. */
export interface OnlineSlot {
  time: string;
  end_time: string;
  dentist_id: number;
  dentist_name: string;
  chair_id: number;
}

/**
 * The starts a patient may book on `date` for a treatment offered online: the desk's own rules
 * (open hours, lengths, the dentist's part, chairs and turnover, and the times held online) over the
 * chairs bookable online, from the clinic's notice on and within its horizon. Without a dentist, each
 * start names the first dentist free then, by name.
 */
export async function onlineSlots(
  db: Reader,
  { clinicId, settings }: BookingClinic,
  query: { treatment: Treatment; date: string; dentistId?: number | null; exceptId?: number },
): Promise<OnlineSlot[]> {
  const rules = settings.onlineBooking;
  const now = await clinicNow(db, clinicId);
  if (query.date > addDays(now.date, rules.horizonDays)) {
    const message = horizonMessage(rules.horizonDays);
    throw new InvalidValue(message, [{ field: 'date', message }]);
  }
  const all = await onlineDentists(db, clinicId);
  const asked = query.dentistId ?? undefined;
  const chosen = asked === undefined ? all : all.filter((dentist) => dentist.id === asked);
  if (chosen.length === 0 && asked !== undefined) {
    throw new InvalidValue(DENTIST_NOT_ONLINE, [{ field: 'dentist_id', message: DENTIST_NOT_ONLINE }]);
  }
  const earliest = addMinutesToClinicTime(now, rules.noticeHours * 60);
  const duration = settings.treatmentMinutes[query.treatment];
  const byTime = new Map<string, OnlineSlot>();
  const answers = await freeTimesOfDentists(db, clinicId, chosen, {
    date: query.date,
    treatment: query.treatment,
    bookableOnline: true,
    earliest,
    exceptId: query.exceptId,
  });
  chosen.forEach((dentist, index) => {
    for (const slot of answers[index]?.slots ?? []) {
      if (byTime.has(slot.time)) continue;
      byTime.set(slot.time, {
        time: slot.time,
        end_time: addMinutesToClinicTime({ date: query.date, time: slot.time }, duration).time,
        dentist_id: dentist.id,
        dentist_name: dentist.name,
        chair_id: slot.chair_id,
      });
    }
  });
  return [...byTime.values()].sort((a, b) => a.time.localeCompare(b.time));
}

/** The free times the booking page lists for a day. */
export async function publicFreeTimes(
  db: Database,
  clinic: BookingClinic,
  query: { visit_type: string; date: string; dentist_id?: number },
): Promise<PublicFreeTimes> {
  const treatment = onlineTreatment(clinic.settings, query.visit_type, 'visit_type');
  const slots = await onlineSlots(db, clinic, { treatment, date: query.date, dentistId: query.dentist_id });
  return { date: query.date, times: slots.map(({ chair_id: _chair, ...time }) => time) };
}
