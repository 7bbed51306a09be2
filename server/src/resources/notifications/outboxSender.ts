import { OUTBOX_MAX_ATTEMPTS, type OutboxKind } from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/client';
import { outbox } from '../../db/schema';
import { readSettings } from '../settings/settingsData';
import { syncAppointmentReminders } from './automaticMessages';
import { flagOffReason, REMINDER_FLAGS, REMINDER_KINDS } from './outboxMessages';
import { type Attachment, visitInviteOf } from './visitInvite';

/**
 * One way out: e-mail or SMS. A failure throws, with the reason as its message. `key` names the
 * message for good: the same message sent again carries the same key.
 */
export interface Transport {
  send(message: {
    key: string;
    to: string;
    subject: string | null;
    body: string;
    /** Files for e-mail (an online booking's calendar file); an SMS goes without them. */
    attachments?: Attachment[];
  }): Promise<void>;
}

export interface Transports {
  email: Transport | null;
  sms: Transport | null;
}

/**
 * A visit's private manage link, when it has one (booked online): a reminder carries it so the patient
 * can confirm, move or cancel from it. Added as the message goes, never stored in the outbox the
 * staff read (docs/product.md, Online booking).
 */
export type ManageLinkOf = (clinicId: number, appointmentId: number) => Promise<string | null>;

/** A reminder's text with the visit's manage link, when it has one. */
async function withManageLink(row: Claimed, manageLinkOf: ManageLinkOf | undefined): Promise<string> {
  if (!manageLinkOf || !REMINDER_KINDS.includes(row.kind) || row.appointment_id === null) return row.body;
  const link = await manageLinkOf(row.clinic_id, row.appointment_id);
  if (!link) return row.body;
  return row.channel === 'email'
    ? `${row.body}\n\nTo confirm, move or cancel your visit: ${link}`
    : `${row.body} Confirm or change: ${link}`;
}

/**
 * E-mail through SMTP (nodemailer): `smtp://user:pass@host:587`, `smtps://…`. Every step has a time
 * limit well inside a sender's claim (CLAIM_SECONDS), so a hanging server fails the try instead of
 * outliving the claim and letting another sender take the message too. The Message-ID is the
 * message's own: should a crash between the server's acceptance and the row being marked sent make
 * it go once more, mail systems see the same message.
 */
export function smtpTransport(url: string, from: string): Transport {
  const mailer = nodemailer.createTransport({
    url,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return {
    async send({ key, to, subject, body, attachments }) {
      await mailer.sendMail({
        from,
        to,
        subject: subject ?? undefined,
        text: body,
        messageId: `<${key}@${domain}>`,
        attachments,
      });
    },
  };
}

/** SMS through any gateway's webhook: POST `{ "to": "...", "body": "..." }`; a non-2xx answer fails. */
export function webhookTransport(url: string): Transport {
  return {
    async send({ key, to, body }) {
      const response = await fetch(url, {
        method: 'POST',
        // Gateways that honour an idempotency key drop a repeat of the same message.
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ to, body }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!response.ok)
        throw new Error(`The SMS gateway answered ${response.status} ${response.statusText}`.trim());
    },
  };
}

const CLAIM_SECONDS = 120;
const BATCH = 20;
/** The pause before try n+1: 30 s, 1 min, 2 min, 4 min. */
const backoffSeconds = (attempts: number) => 30 * 2 ** Math.max(0, attempts - 1);

type NotificationFlag = 'emailReminders' | 'smsReminders' | 'appointmentConfirmations' | 'newPatientAlerts';

/**
 * The clinic's switch a message goes by; a recall reminder or waitlist offer goes by its channel's
 * reminder switch; an online booking's code and confirmation by none (the patient is waiting for them).
 */
const flagOf = (kind: OutboxKind, channel: 'email' | 'sms'): NotificationFlag | null => {
  switch (kind) {
    case 'email_reminder':
      return 'emailReminders';
    case 'sms_reminder':
      return 'smsReminders';
    case 'appointment_confirmation':
      return 'appointmentConfirmations';
    case 'new_patient_alert':
      return 'newPatientAlerts';
    case 'recall_reminder':
    case 'waitlist_offer':
      return channel === 'sms' ? 'smsReminders' : 'emailReminders';
    case 'online_code':
    case 'online_confirmation':
      return null;
  }
};

type Claimed = {
  clinic_id: number;
  id: number;
  kind: OutboxKind;
  channel: 'email' | 'sms';
  appointment_id: number | null;
  recipient: string;
  subject: string | null;
  body: string;
  attempts: number;
};

/**
 * A reminder is written when its visit is booked, days or weeks ahead; the patient's address, the
 * clinic's name or phone, the lead time or the zone may have changed since. Just before it goes, it
 * is brought in line with today's facts (syncAppointmentReminders): answers the row to send, or null
 * when it is no longer due (skipped, or due later: the claim is handed back).
 */
async function freshReminder(db: Database, row: Claimed): Promise<Claimed | null> {
  if (!REMINDER_KINDS.includes(row.kind) || row.appointment_id === null) return row;
  const appointmentId = row.appointment_id;
  return db.transaction(async (tx) => {
    await syncAppointmentReminders(tx, row.clinic_id, appointmentId);
    const [now] = await tx
      .select({
        state: outbox.state,
        recipient: outbox.recipient,
        subject: outbox.subject,
        body: outbox.body,
        due: sql<boolean>`${outbox.nextAttemptAt} <= now()`,
      })
      .from(outbox)
      .where(and(eq(outbox.clinicId, row.clinic_id), eq(outbox.id, row.id)));
    if (now?.state !== 'pending') return null;
    if (!now.due) {
      await tx
        .update(outbox)
        .set({ claimedUntil: null, attempts: sql`${outbox.attempts} - 1` })
        .where(and(eq(outbox.clinicId, row.clinic_id), eq(outbox.id, row.id)));
      return null;
    }
    return { ...row, recipient: now.recipient, subject: now.subject, body: now.body };
  });
}

/**
 * Reminders missing for visits that come within their lead time: booked while the flag was off, or
 * before it was turned on. Only visits that lie ahead and are due for a reminder soon are looked at,
 * so this stays a short indexed read per run however long the clinic's calendar: each clinic's few
 * days are a range of appointments_status_date_idx. The days are read clinic by clinic (`offset 0`
 * keeps PostgreSQL from joining the appointments first): as one join, the plan walked every visit
 * to come of every clinic, 307,000 rows and 584 ms on the large clinic, once a minute.
 */
async function queueMissedReminders(db: Database): Promise<void> {
  const missing = await db.execute<{ clinic_id: number; id: number }>(sql`
    select a.clinic_id, a.id
      from clinic_settings s
      join clinics c on c.id = s.clinic_id
      cross join lateral (
        select a.clinic_id, a.id, a.date, a.time from appointments a
         where a.clinic_id = s.clinic_id
           and a.status in ('pending', 'confirmed')
           and a.date between current_date - 1 and current_date + (s.reminder_lead_hours / 24 + 2)
        offset 0) a
     where (a.date + a.time::time) at time zone c.time_zone > now()
       and (a.date + a.time::time) at time zone c.time_zone
           <= now() + make_interval(hours => s.reminder_lead_hours) + interval '1 hour'
       and ${sql.join(
         REMINDER_FLAGS.map(
           ({ kind, flag }) => sql`(coalesce((s.notifications ->> ${flag})::boolean, false)
             and not exists (select 1 from ${outbox} o
               where o.clinic_id = a.clinic_id and o.appointment_id = a.id and o.kind = ${kind}
                 and o.reason is distinct from ${flagOffReason(flag)}))`,
         ),
         sql` or `,
       )}
     limit ${BATCH}`);
  for (const visit of missing.rows) {
    await db.transaction((tx) => syncAppointmentReminders(tx, visit.clinic_id, visit.id));
  }
}

/**
 * Sends what is due. Several processes may run this at once: each claims its rows (FOR UPDATE SKIP
 * LOCKED, then a claim that lapses after two minutes if the process dies), so a message goes to one
 * sender only. Answers how many messages it settled.
 */
export async function sendDueMessages(
  db: Database,
  transports: Transports,
  manageLinkOf?: ManageLinkOf,
): Promise<number> {
  await queueMissedReminders(db);
  const claimed = await db.execute<Claimed>(sql`
    update ${outbox}
       set claimed_until = now() + make_interval(secs => ${CLAIM_SECONDS}), attempts = attempts + 1
     where (clinic_id, id) in (
       select clinic_id, id from ${outbox}
        where state = 'pending' and next_attempt_at <= now()
          and (claimed_until is null or claimed_until < now())
        order by next_attempt_at
        limit ${BATCH}
        for update skip locked)
    returning clinic_id, id, kind, channel, appointment_id, recipient, subject, body, attempts`);
  const rows = claimed.rows;
  for (const claimedRow of rows) {
    const where = and(
      eq(outbox.clinicId, claimedRow.clinic_id),
      eq(outbox.id, claimedRow.id),
      eq(outbox.state, 'pending'),
    );
    const row = await freshReminder(db, claimedRow);
    if (!row) continue;
    const settings = await readSettings(db, row.clinic_id);
    const flag = flagOf(row.kind, row.channel);
    if (flag && !settings.notifications[flag]) {
      await db
        .update(outbox)
        .set({ state: 'skipped', reason: flagOffReason(flag), claimedUntil: null, updatedAt: new Date() })
        .where(where);
      continue;
    }
    const transport = row.channel === 'email' ? transports.email : transports.sms;
    if (!transport) {
      const reason =
        row.channel === 'email' ? 'no e-mail transport configured' : 'no SMS transport configured';
      await db
        .update(outbox)
        .set({ state: 'skipped', reason, claimedUntil: null, updatedAt: new Date() })
        .where(where);
      continue;
    }
    try {
      const invite =
        row.kind === 'online_confirmation' && row.channel === 'email' && row.appointment_id !== null
          ? await visitInviteOf(db, row.clinic_id, row.appointment_id)
          : null;
      await transport.send({
        key: `outbox-${row.clinic_id}-${row.id}`,
        to: row.recipient,
        subject: row.subject,
        body: await withManageLink(row, manageLinkOf),
        ...(invite ? { attachments: [invite] } : {}),
      });
      // Whatever happened to the row while it was on its way (a visit cancelled mid-send skips its
      // reminder), it went: the outbox says so.
      await db
        .update(outbox)
        .set({
          state: 'sent',
          sentAt: new Date(),
          reason: null,
          lastError: null,
          claimedUntil: null,
          updatedAt: new Date(),
        })
        .where(and(eq(outbox.clinicId, row.clinic_id), eq(outbox.id, row.id)));
    } catch (error) {
      const lastError = error instanceof Error ? error.message : String(error);
      const finished = row.attempts >= OUTBOX_MAX_ATTEMPTS;
      await db
        .update(outbox)
        .set({
          ...(finished ? { state: 'failed' } : {}),
          lastError,
          claimedUntil: null,
          nextAttemptAt: new Date(Date.now() + backoffSeconds(row.attempts) * 1000),
          updatedAt: new Date(),
        })
        .where(where);
    }
  }
  return rows.length;
}

/** A job run by a timer in this process, that tests also run by hand. */
export interface RepeatingJob {
  /** Runs now (after a run in flight), then answers. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs `run` on start-up and every `pollSeconds` (only by hand when 0), one run at a time in this
 * process; `run` is told whether the job was stopped meanwhile, to end a long run early.
 */
export function startRepeating(
  run: (stopped: () => boolean) => Promise<void>,
  pollSeconds: number,
  onError: (error: unknown) => void,
): RepeatingJob {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const runOnce = () => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        await run(() => stopped);
      } catch (error) {
        onError(error);
      }
    });
    return running;
  };
  const timer = pollSeconds > 0 ? setInterval(() => void runOnce(), pollSeconds * 1000) : null;
  timer?.unref();
  if (pollSeconds > 0) void runOnce();
  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

export type OutboxSender = RepeatingJob;

/** Sends what is due, and what that frees up, on start-up and every `pollSeconds`. */
export function startOutboxSender(
  db: Database,
  transports: Transports,
  pollSeconds: number,
  onError: (error: unknown) => void,
  manageLinkOf?: ManageLinkOf,
): OutboxSender {
  return startRepeating(
    async (stopped) => {
      while ((await sendDueMessages(db, transports, manageLinkOf)) === BATCH && !stopped()) {
        // A full batch: there may be more due at once.
      }
    },
    pollSeconds,
    onError,
  );
}
