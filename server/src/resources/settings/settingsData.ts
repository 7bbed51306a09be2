import {
  type DentistPart,
  type DentistParts,
  defaultPracticeSettings,
  dentistPartProblem,
  isTimeZone,
  isWholeVisit,
  type PracticeSettings,
  type PracticeSettingsUpdate,
  TREATMENTS,
  type Treatment,
  wholeVisitPart,
} from '@dental/shared/domain';
import { eq } from 'drizzle-orm';
import { recordAudit } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { forgetClinicTimeZone } from '../../db/clinicTime';
import { clinicSettings, clinics } from '../../db/schema';
import { type FieldProblem, InvalidValue, NotFound } from '../../domain/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import type { Actor } from '../actorAudit';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * What follows a save of the settings, in its transaction, before it commits: told the settings before
 * and after (the reminders move or skip what waits in the outbox). Settings know nothing of who
 * follows; app.ts hands the followers to the routes.
 */
export type SettingsFollower = (
  tx: Transaction,
  clinicId: number,
  before: PracticeSettings,
  after: PracticeSettings,
  /** The session the save came from (none for the server's own work). */
  savedFrom: string | null,
) => Promise<void>;

/** A value as JSON with its keys sorted: stored JSON comes back with its keys in another order than a body's. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/** The dentist's parts as `clinic_settings.dentist_parts` holds them, the shape the database's `dentist_part()` reads. */
type StoredDentistParts = Partial<Record<Treatment, { from: number; to: number }>>;

const isMinute = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/**
 * Each treatment's part as a booking takes it (migration 0034, `dentist_part()`): the stored part cut
 * at the visit's end; the whole visit when none is stored or what is left of it is empty.
 */
function dentistPartsOf(stored: unknown, lengths: PracticeSettings['treatmentMinutes']): DentistParts {
  const parts = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  return Object.fromEntries(
    TREATMENTS.map((treatment): [Treatment, DentistPart] => {
      const length = lengths[treatment];
      const part = parts[treatment] as { from?: unknown; to?: unknown } | null | undefined;
      if (!part || !isMinute(part.from) || !isMinute(part.to)) return [treatment, wholeVisitPart(length)];
      const to = Math.min(part.to, length);
      return [
        treatment,
        part.from >= 0 && part.from < to ? { dentistFrom: part.from, dentistTo: to } : wholeVisitPart(length),
      ];
    }),
  ) as DentistParts;
}

/**
 * The parts to store: only those that are not the whole visit, so a treatment whose dentist is needed
 * throughout keeps following its length; null when every treatment's is the whole visit.
 */
function storedDentistParts(settings: PracticeSettings): StoredDentistParts | null {
  const stored: StoredDentistParts = {};
  for (const treatment of TREATMENTS) {
    const part = settings.dentistParts[treatment];
    if (!isWholeVisit(part, settings.treatmentMinutes[treatment])) {
      stored[treatment] = { from: part.dentistFrom, to: part.dentistTo };
    }
  }
  return Object.keys(stored).length > 0 ? stored : null;
}

/**
 * Refuses parts that do not fit their visits once the lengths are merged: 0 ≤ from < to ≤ length.
 * A part the save left alone whose treatment was shortened names the length too, the field changed.
 */
function requirePartsFit(next: PracticeSettings, update: PracticeSettingsUpdate): void {
  const problems: FieldProblem[] = [];
  for (const treatment of TREATMENTS) {
    const part = next.dentistParts[treatment];
    const problem = dentistPartProblem(part, next.treatmentMinutes[treatment]);
    if (!problem) continue;
    problems.push({ field: `dentistParts.${treatment}.${problem.end}`, message: problem.message });
    if (
      update.treatmentMinutes?.[treatment] !== undefined &&
      update.dentistParts?.[treatment] === undefined
    ) {
      problems.push({
        field: `treatmentMinutes.${treatment}`,
        message: `The dentist's part of this treatment ends at minute ${part.dentistTo}: change it first`,
      });
    }
  }
  const [first] = problems;
  if (first) throw new InvalidValue(`Invalid ${first.field}: ${first.message}`, problems);
}

/** Saved settings over the defaults: a clinic that never saved answers the defaults, named after it. */
export async function readSettings(db: Database | Transaction, clinicId: number): Promise<PracticeSettings> {
  const [row] = await db
    .select({
      clinicName: clinics.name,
      timeZone: clinics.timeZone,
      slug: clinics.slug,
      practiceName: clinicSettings.practiceName,
      address: clinicSettings.address,
      phone: clinicSettings.phone,
      email: clinicSettings.email,
      workingHours: clinicSettings.workingHours,
      notifications: clinicSettings.notifications,
      idleTimeoutMinutes: clinicSettings.idleTimeoutMinutes,
      reminderLeadHours: clinicSettings.reminderLeadHours,
      recallRemindersEnabled: clinicSettings.recallRemindersEnabled,
      recallReminderDaysBefore: clinicSettings.recallReminderDaysBefore,
      treatmentMinutes: clinicSettings.treatmentMinutes,
      bookingGridMinutes: clinicSettings.bookingGridMinutes,
      mfaRequired: clinicSettings.mfaRequired,
      turnoverMinutes: clinicSettings.turnoverMinutes,
      dentistParts: clinicSettings.dentistParts,
      onlineBooking: clinicSettings.onlineBooking,
      version: clinicSettings.version,
    })
    .from(clinics)
    .leftJoin(clinicSettings, eq(clinicSettings.clinicId, clinics.id))
    .where(eq(clinics.id, clinicId));
  if (!row) throw new NotFound('Clinic not found');
  const defaults = defaultPracticeSettings(
    row.clinicName,
    isTimeZone(row.timeZone) ? row.timeZone : 'UTC',
    row.slug,
  );
  if (row.practiceName === null) return defaults;
  const treatmentMinutes: PracticeSettings['treatmentMinutes'] = {
    ...defaults.treatmentMinutes,
    ...(row.treatmentMinutes as Partial<PracticeSettings['treatmentMinutes']> | null),
  };
  return {
    practiceName: row.practiceName,
    address: row.address ?? '',
    phone: row.phone ?? '',
    email: row.email ?? '',
    // Stored JSON is merged over the defaults so a day or flag added later still answers.
    workingHours: {
      ...defaults.workingHours,
      ...(row.workingHours as Partial<PracticeSettings['workingHours']>),
    },
    notifications: {
      ...defaults.notifications,
      ...(row.notifications as Partial<PracticeSettings['notifications']>),
    },
    timeZone: defaults.timeZone,
    idleTimeoutMinutes: row.idleTimeoutMinutes ?? defaults.idleTimeoutMinutes,
    reminderLeadHours: row.reminderLeadHours ?? defaults.reminderLeadHours,
    recallRemindersEnabled: row.recallRemindersEnabled ?? defaults.recallRemindersEnabled,
    recallReminderDaysBefore: row.recallReminderDaysBefore ?? defaults.recallReminderDaysBefore,
    treatmentMinutes,
    bookingGridMinutes: row.bookingGridMinutes ?? defaults.bookingGridMinutes,
    // Null is none; the database's check keeps the column to 0-60 in steps of 5.
    turnoverMinutes: row.turnoverMinutes ?? defaults.turnoverMinutes,
    dentistParts: dentistPartsOf(row.dentistParts, treatmentMinutes),
    // The database's check keeps the column to the policies.
    mfaRequired: (row.mfaRequired as PracticeSettings['mfaRequired'] | null) ?? defaults.mfaRequired,
    // Written only through the settings' own schema: stored rules over the defaults, so a rule added later answers.
    onlineBooking: {
      ...defaults.onlineBooking,
      ...(row.onlineBooking as Partial<PracticeSettings['onlineBooking']> | null),
    },
    slug: row.slug,
    version: row.version ?? defaults.version,
  };
}

export async function saveSettings(
  db: Database,
  actor: Actor,
  update: PracticeSettingsUpdate,
  followers: readonly SettingsFollower[] = [],
  expected: ExpectedVersion = null,
  savedFrom: string | null = null,
): Promise<PracticeSettings> {
  const saved = await db.transaction(async (tx) => {
    // One writer at a time per clinic, so two saves of different fields both land.
    await tx
      .select({ id: clinics.id })
      .from(clinics)
      .where(eq(clinics.id, actor.clinicId))
      .for('no key update');
    const current = await readSettings(tx, actor.clinicId);
    // Settings writers take turns on the clinic's lock above: no save can land between this and ours.
    requireVersion(current.version, expected);
    const next: PracticeSettings = {
      practiceName: update.practiceName ?? current.practiceName,
      address: update.address ?? current.address,
      phone: update.phone ?? current.phone,
      email: update.email ?? current.email,
      workingHours: { ...current.workingHours, ...update.workingHours },
      notifications: { ...current.notifications, ...update.notifications },
      timeZone: update.timeZone ?? current.timeZone,
      idleTimeoutMinutes: update.idleTimeoutMinutes ?? current.idleTimeoutMinutes,
      reminderLeadHours: update.reminderLeadHours ?? current.reminderLeadHours,
      recallRemindersEnabled: update.recallRemindersEnabled ?? current.recallRemindersEnabled,
      recallReminderDaysBefore: update.recallReminderDaysBefore ?? current.recallReminderDaysBefore,
      treatmentMinutes: { ...current.treatmentMinutes, ...update.treatmentMinutes },
      bookingGridMinutes: update.bookingGridMinutes ?? current.bookingGridMinutes,
      turnoverMinutes: update.turnoverMinutes ?? current.turnoverMinutes,
      dentistParts: { ...current.dentistParts },
      mfaRequired: update.mfaRequired ?? current.mfaRequired,
      onlineBooking: { ...current.onlineBooking, ...update.onlineBooking },
      slug: current.slug,
      version: current.version,
    };
    for (const treatment of TREATMENTS) {
      const part = update.dentistParts?.[treatment];
      const length = next.treatmentMinutes[treatment];
      if (part) next.dentistParts[treatment] = { dentistFrom: part.dentistFrom, dentistTo: part.dentistTo };
      // A part that was the whole visit stays so when the visit's length changes.
      else if (isWholeVisit(current.dentistParts[treatment], current.treatmentMinutes[treatment])) {
        next.dentistParts[treatment] = wholeVisitPart(length);
      }
    }
    requirePartsFit(next, update);
    const dentistParts = storedDentistParts(next);
    const row = {
      practiceName: next.practiceName,
      address: next.address,
      phone: next.phone,
      email: next.email,
      workingHours: next.workingHours,
      notifications: next.notifications,
      idleTimeoutMinutes: next.idleTimeoutMinutes,
      reminderLeadHours: next.reminderLeadHours,
      recallRemindersEnabled: next.recallRemindersEnabled,
      recallReminderDaysBefore: next.recallReminderDaysBefore,
      treatmentMinutes: next.treatmentMinutes,
      bookingGridMinutes: next.bookingGridMinutes,
      mfaRequired: next.mfaRequired,
      turnoverMinutes: next.turnoverMinutes,
      dentistParts,
      onlineBooking: next.onlineBooking,
      updatedAt: new Date(),
    };
    // A part that is the whole visit follows its length: only a part as stored is a change of its own.
    const compared = (settings: PracticeSettings, field: keyof PracticeSettings) =>
      canonicalJson(field === 'dentistParts' ? storedDentistParts(settings) : settings[field]);
    const changed = (Object.keys(next) as Array<keyof PracticeSettings>).filter(
      (field) => field !== 'version' && compared(next, field) !== compared(current, field),
    );
    // A clinic's first save follows its defaults, version 1, and is the next version if it changed
    // anything; later saves are versioned by the database's trigger. A save that changes nothing staff
    // see leaves the stored row as it is (a value kept as null there reads as its default), so its
    // version holds: a desk's open form is not made stale by another desk's unchanged save.
    const [stored] = await tx
      .insert(clinicSettings)
      .values({ clinicId: actor.clinicId, ...row, version: current.version + (changed.length > 0 ? 1 : 0) })
      .onConflictDoUpdate({
        target: clinicSettings.clinicId,
        set: changed.length > 0 ? row : { updatedAt: row.updatedAt },
      })
      .returning({ version: clinicSettings.version });
    if (stored) next.version = stored.version;
    if (next.timeZone !== current.timeZone) {
      await tx.update(clinics).set({ timeZone: next.timeZone }).where(eq(clinics.id, actor.clinicId));
    }
    for (const follow of followers) await follow(tx, actor.clinicId, current, next, savedFrom);
    await recordAudit(tx, {
      clinicId: actor.clinicId,
      userId: actor.userId,
      desk: actor.desk,
      action: 'update',
      entity: 'settings',
      entityId: actor.clinicId,
      details: { changed },
    });
    return next;
  });
  // After the commit: a read between a drop inside the transaction and the commit would keep the old zone.
  forgetClinicTimeZone(actor.clinicId);
  return saved;
}
