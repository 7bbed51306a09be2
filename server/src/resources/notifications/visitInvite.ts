import { and, eq } from 'drizzle-orm';
import { ICalCalendarMethod } from 'ical-generator';
import type { Reader } from '../../db/client';
import { appointments, dentists } from '../../db/schema';
import { addVisitEvent, clinicCalendar } from '../calendar/icalendar';
import { readSettings } from '../settings/settingsData';

/** A file sent with a message. */
export interface Attachment {
  filename: string;
  content: string;
  contentType: string;
}

/**
 * The visit as a calendar file for the patient (docs/product.md, Online booking): read when the
 * message goes, so a visit moved meanwhile is sent as it is now. The UID is the visit's, so adding
 * a later file updates the same entry in the patient's calendar instead of adding a second one.
 */
export async function visitInviteOf(
  db: Reader,
  clinicId: number,
  appointmentId: number,
): Promise<Attachment | null> {
  const [visit] = await db
    .select({
      date: appointments.date,
      time: appointments.time,
      duration: appointments.duration,
      treatment: appointments.treatment,
      status: appointments.status,
      sequence: appointments.sequence,
      updatedAt: appointments.updatedAt,
      dentist: dentists.name,
    })
    .from(appointments)
    .innerJoin(
      dentists,
      and(eq(dentists.clinicId, appointments.clinicId), eq(dentists.id, appointments.dentistId)),
    )
    .where(and(eq(appointments.clinicId, clinicId), eq(appointments.id, appointmentId)));
  if (!visit) return null;
  const settings = await readSettings(db, clinicId);
  const ical = clinicCalendar(settings.practiceName, settings.timeZone);
  ical.calendar.method(ICalCalendarMethod.PUBLISH);
  addVisitEvent(ical, settings.timeZone, {
    uid: `visit-${clinicId}-${appointmentId}@dental-clinic.calendar`,
    sequence: visit.sequence,
    date: visit.date,
    time: visit.time,
    duration: visit.duration,
    changedAt: visit.updatedAt,
    summary: `${visit.treatment} at ${settings.practiceName}`,
    location: settings.address || null,
    description: [`With ${visit.dentist}.`, settings.phone ? `To change it, call ${settings.phone}.` : '']
      .filter(Boolean)
      .join(' '),
    cancelled: visit.status === 'cancelled',
  });
  return {
    filename: 'visit.ics',
    content: ical.calendar.toString(),
    contentType: 'text/calendar; charset=utf-8',
  };
}
