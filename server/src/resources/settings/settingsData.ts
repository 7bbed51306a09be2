import {
  defaultPracticeSettings,
  isTimeZone,
  type PracticeSettings,
  type PracticeSettingsUpdate,
} from '@dental/shared/domain';
import { eq } from 'drizzle-orm';
import { recordAudit } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { forgetClinicTimeZone } from '../../db/clinicTime';
import { clinicSettings, clinics } from '../../db/schema';
import { NotFound } from '../../domain/errors';
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

/** Saved settings over the defaults: a clinic that never saved answers the defaults, named after it. */
export async function readSettings(db: Database | Transaction, clinicId: number): Promise<PracticeSettings> {
  const [row] = await db
    .select({
      clinicName: clinics.name,
      timeZone: clinics.timeZone,
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
      version: clinicSettings.version,
    })
    .from(clinics)
    .leftJoin(clinicSettings, eq(clinicSettings.clinicId, clinics.id))
    .where(eq(clinics.id, clinicId));
  if (!row) throw new NotFound('Clinic not found');
  const defaults = defaultPracticeSettings(row.clinicName, isTimeZone(row.timeZone) ? row.timeZone : 'UTC');
  if (row.practiceName === null) return defaults;
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
    treatmentMinutes: {
      ...defaults.treatmentMinutes,
      ...(row.treatmentMinutes as Partial<PracticeSettings['treatmentMinutes']> | null),
    },
    bookingGridMinutes: row.bookingGridMinutes ?? defaults.bookingGridMinutes,
    // The database's check keeps the column to the policies.
    mfaRequired: (row.mfaRequired as PracticeSettings['mfaRequired'] | null) ?? defaults.mfaRequired,
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
      mfaRequired: update.mfaRequired ?? current.mfaRequired,
      version: current.version,
    };
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
      updatedAt: new Date(),
    };
    const changed = (Object.keys(next) as Array<keyof PracticeSettings>).filter(
      (field) => field !== 'version' && canonicalJson(next[field]) !== canonicalJson(current[field]),
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
