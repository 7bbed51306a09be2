import { OUTBOX_MAX_ATTEMPTS, type OutboxKind } from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/client';
import { outbox } from '../../db/schema';
import { readSettings } from '../settings/settingsData';

/** One way out: e-mail or SMS. A failure throws, with the reason as its message. */
export interface Transport {
  send(message: { to: string; subject: string | null; body: string }): Promise<void>;
}

export interface Transports {
  email: Transport | null;
  sms: Transport | null;
}

/** E-mail through SMTP (nodemailer): `smtp://user:pass@host:587`, `smtps://…`. */
export function smtpTransport(url: string, from: string): Transport {
  const mailer = nodemailer.createTransport(url);
  return {
    async send({ to, subject, body }) {
      await mailer.sendMail({ from, to, subject: subject ?? undefined, text: body });
    },
  };
}

/** SMS through any gateway's webhook: POST `{ "to": "...", "body": "..." }`; a non-2xx answer fails. */
export function webhookTransport(url: string): Transport {
  return {
    async send({ to, body }) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
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

const FLAG_OF: Record<
  OutboxKind,
  'emailReminders' | 'smsReminders' | 'appointmentConfirmations' | 'newPatientAlerts'
> = {
  email_reminder: 'emailReminders',
  sms_reminder: 'smsReminders',
  appointment_confirmation: 'appointmentConfirmations',
  new_patient_alert: 'newPatientAlerts',
};

type Claimed = {
  clinic_id: number;
  id: number;
  kind: OutboxKind;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body: string;
  attempts: number;
};

/**
 * Sends what is due. Several processes may run this at once: each claims its rows (FOR UPDATE SKIP
 * LOCKED, then a claim that lapses after two minutes if the process dies), so a message goes to one
 * sender only. Answers how many messages it settled.
 */
export async function sendDueMessages(db: Database, transports: Transports): Promise<number> {
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
    returning clinic_id, id, kind, channel, recipient, subject, body, attempts`);
  const rows = claimed.rows;
  for (const row of rows) {
    const where = and(eq(outbox.clinicId, row.clinic_id), eq(outbox.id, row.id), eq(outbox.state, 'pending'));
    const settings = await readSettings(db, row.clinic_id);
    const flag = FLAG_OF[row.kind];
    if (!settings.notifications[flag]) {
      await db
        .update(outbox)
        .set({ state: 'skipped', reason: `${flag} is off`, claimedUntil: null, updatedAt: new Date() })
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
      await transport.send({ to: row.recipient, subject: row.subject, body: row.body });
      await db
        .update(outbox)
        .set({
          state: 'sent',
          sentAt: new Date(),
          lastError: null,
          claimedUntil: null,
          updatedAt: new Date(),
        })
        .where(where);
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

export interface OutboxSender {
  /** Sends what is due now (and what that frees up), then answers. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/** Wakes on start-up and every `pollSeconds`; one run at a time in this process. */
export function startOutboxSender(
  db: Database,
  transports: Transports,
  pollSeconds: number,
  onError: (error: unknown) => void,
): OutboxSender {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const runOnce = () => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        while ((await sendDueMessages(db, transports)) === BATCH && !stopped) {
          // A full batch: there may be more due at once.
        }
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
