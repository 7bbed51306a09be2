import type { PracticeSettings } from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import { recordAudit } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { addDays, clinicToday } from '../../db/clinicTime';
import { type RepeatingJob, startRepeating } from '../notifications/outboxSender';
import { queueRecallReminder } from '../notifications/patientMessages';
import { readSettings } from '../settings/settingsData';

/**
 * Automatic recall reminders (a clinic's setting, off by default): each patient whose recall falls due
 * within the clinic's `recallReminderDaysBefore` days, who is not booked for it, not snoozed past
 * today and has an address for a reminder channel that is on, is sent one reminder for that due date,
 * through the outbox. A recall whose due date has passed is the recall list's to work, not this job's.
 *
 * Exactly once across API processes: a recall is claimed by setting `auto_reminded_for` to its due
 * date in a statement that only touches recalls where the two differ, in the same transaction as the
 * messages, the last contact and the audit record. A second process running at once skips the rows
 * the first holds (SKIP LOCKED) or, having read them before the first committed, re-checks them once
 * the lock is free and finds them claimed: PostgreSQL's row lock, not a read before the write, decides.
 */

/** Recalls claimed and reminded in one transaction. */
const BATCH = 100;

interface ClaimedRecall {
  patient_id: number;
  recall_type_id: number;
  patient_name: string;
  email: string | null;
  phone: string | null;
  type_name: string;
}

/** The channels the clinic has on, as a condition on the patient `p` having an address for one. */
function reachable(settings: PracticeSettings): SQL | null {
  const channels: SQL[] = [];
  if (settings.notifications.emailReminders) channels.push(sql`btrim(coalesce(p.email, '')) <> ''`);
  if (settings.notifications.smsReminders) channels.push(sql`btrim(coalesce(p.phone, '')) <> ''`);
  return channels.length > 0 ? sql`(${sql.join(channels, sql` or `)})` : null;
}

/** Claims up to BATCH of the clinic's due recalls and queues their reminders; answers how many. */
async function remindBatch(
  db: Database,
  clinicId: number,
  settings: PracticeSettings,
  today: string,
  canReach: SQL,
): Promise<number> {
  const lastDueDate = addDays(today, settings.recallReminderDaysBefore);
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute(sql`
      update patient_recalls claimed set auto_reminded_for = claimed.due_date
      from recall_types ct, patients cp
      where (claimed.clinic_id, claimed.patient_id, claimed.recall_type_id) in (
          select r.clinic_id, r.patient_id, r.recall_type_id
          from patient_recalls r
          join recall_types t on t.clinic_id = r.clinic_id and t.id = r.recall_type_id
          join patients p on p.clinic_id = r.clinic_id and p.id = r.patient_id
          where r.clinic_id = ${clinicId} and r.active and t.active and p.status = 'active'
            and r.follow_up_on between ${today}::date and ${lastDueDate}::date
            and r.due_date between ${today}::date and ${lastDueDate}::date
            and (r.snoozed_until is null or r.snoozed_until <= ${today}::date)
            and r.auto_reminded_for is distinct from r.due_date
            and (r.booked_until is null or r.booked_until < ${today}::date)
            and ${canReach}
          order by r.follow_up_on, r.patient_id, r.recall_type_id
          limit ${BATCH}
          for update of r skip locked)
        and ct.clinic_id = claimed.clinic_id and ct.id = claimed.recall_type_id
        and cp.clinic_id = claimed.clinic_id and cp.id = claimed.patient_id
        and claimed.auto_reminded_for is distinct from claimed.due_date
      returning claimed.patient_id, claimed.recall_type_id, cp.name as patient_name, cp.email, cp.phone,
        ct.name as type_name`);
    for (const recall of rows as unknown as ClaimedRecall[]) {
      const channels = await queueRecallReminder(
        tx,
        clinicId,
        {
          patientId: recall.patient_id,
          patient: recall.patient_name,
          email: recall.email ?? '',
          phone: recall.phone ?? '',
          recallName: recall.type_name,
        },
        settings,
      );
      await tx.execute(sql`
        update patient_recalls set last_contact_at = now(), last_contact_kind = 'reminder',
          last_contact_note = ${`Automatic reminder by ${channels.join(' and ')}`}, updated_at = now()
        where clinic_id = ${clinicId} and patient_id = ${recall.patient_id}
          and recall_type_id = ${recall.recall_type_id}`);
      // No one sent it: the audit record names no user; it is announced like the desk's reminder.
      await recordAudit(tx, {
        clinicId,
        userId: null,
        action: 'recall_reminded',
        entity: 'recall',
        entityId: recall.patient_id,
        details: { type_id: recall.recall_type_id, channels, automatic: true },
      });
    }
    return rows.length;
  });
}

/** Reminds every clinic's due patients that have the setting on; answers how many reminders were queued. */
export async function sendRecallReminders(db: Database): Promise<number> {
  const { rows } = await db.execute(sql`
    select clinic_id from clinic_settings where recall_reminders_enabled order by clinic_id`);
  let reminded = 0;
  for (const { clinic_id: clinicId } of rows as Array<{ clinic_id: number }>) {
    const settings = await readSettings(db, clinicId);
    const canReach = reachable(settings);
    // Both reminder channels off: nothing can go, and nothing is claimed until one is on.
    if (!canReach) continue;
    const today = await clinicToday(db, clinicId);
    for (;;) {
      const claimed = await remindBatch(db, clinicId, settings, today, canReach);
      reminded += claimed;
      if (claimed < BATCH) break;
    }
  }
  return reminded;
}

/** Queues the recall reminders due on start-up and every `pollSeconds` (only by hand when 0). */
export function startRecallReminders(
  db: Database,
  pollSeconds: number,
  onError: (error: unknown) => void,
): RepeatingJob {
  return startRepeating(
    async () => {
      await sendRecallReminders(db);
    },
    pollSeconds,
    onError,
  );
}
