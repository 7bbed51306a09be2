import {
  type ClinicEvent,
  EVENT_TYPES,
  EVENTS_ACCESS_CHECK_SECONDS,
  EVENTS_RETRY_MS,
  EVENTS_URL,
} from '@dental/shared/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { accessClaimsOf } from '../../auth/accessClaims';
import { AUTHENTICATION_REQUIRED, type Guard, PASSWORD_CHANGED, SESSION_ENDED } from '../../auth/guard';
import { liveSessions } from '../../auth/refreshTokens';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import type { ClinicEventHub, ClinicStream } from '../../plugins/clinicEvents';

/** A stream held open, with what keeps it allowed. */
interface HeldStream extends ClinicStream {
  userId: number;
  /** When its access token was issued (ms): a password change after it ends the stream. */
  issuedAt: number;
  /** Its session (refresh token family); tokens from before sessions were named have none. */
  session: string | null;
  end: (message: string) => void;
}

/**
 * Ends the streams whose access has ended: the account deactivated or deleted, its password changed
 * (every session ends), or the stream's own session signed out. One check per clinic streaming,
 * every few seconds, however many streams it has.
 */
function checkAccess(db: Database, hub: ClinicEventHub): () => Promise<void> {
  return async () => {
    for (const clinicId of hub.clinicsStreaming) {
      const streams = [...hub.streamsOf(clinicId)] as HeldStream[];
      if (streams.length === 0) continue;
      const userIds = [...new Set(streams.map((stream) => stream.userId))];
      const sessions = [...new Set(streams.flatMap((stream) => (stream.session ? [stream.session] : [])))];
      const [accounts, signedIn] = await Promise.all([
        db
          .select({ id: users.id, isActive: users.isActive, sessionsSince: users.sessionsSince })
          .from(users)
          .where(and(eq(users.clinicId, clinicId), inArray(users.id, userIds))),
        liveSessions(db, clinicId, sessions),
      ]);
      const byId = new Map(accounts.map((account) => [account.id, account]));
      for (const stream of streams) {
        const account = byId.get(stream.userId);
        if (!account?.isActive) stream.end(AUTHENTICATION_REQUIRED);
        else if (account.sessionsSince && stream.issuedAt < account.sessionsSince.getTime())
          stream.end(PASSWORD_CHANGED);
        else if (stream.session && !signedIn.has(stream.session)) stream.end(SESSION_ENDED);
      }
    }
  };
}

/**
 * `GET /api/events`: the caller's clinic's changes as Server-Sent Events, as they commit. Each
 * change is an `event: change` with its number as `id:`; a browser that reconnects sends the last
 * one as `Last-Event-ID` and is told what it missed, or `event: resync` when that cannot be told.
 * A stream whose access ends is told so (`event: end`) and closed.
 */
export function registerEventsRoutes(
  app: FastifyInstance,
  db: Database,
  guard: Guard,
  hub: ClinicEventHub,
): void {
  const check = checkAccess(db, hub);
  let checking = false;
  const timer = setInterval(() => {
    if (checking || hub.streamCount === 0) return;
    checking = true;
    check()
      .catch((error: unknown) => app.log.warn({ err: error }, 'checking the event streams failed'))
      .finally(() => {
        checking = false;
      });
  }, EVENTS_ACCESS_CHECK_SECONDS * 1000);
  timer.unref();
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    clearInterval(timer);
    for (const close of open) close();
  });

  app.get(
    EVENTS_URL,
    {
      sse: { kind: 'only' },
      onRequest: guard.authenticated,
      schema: {
        tags: ['events'],
        summary:
          "The clinic's changes as they happen (text/event-stream): `change` events naming the resource, row and action; resume with Last-Event-ID",
      },
    },
    async (request, reply: FastifyReply) => {
      const staff = guard.staffOf(request);
      const claims = accessClaimsOf(app, request);
      const sse = reply.sse;
      sse.keepAlive();
      // How long a browser waits before it reconnects: a field of its own, not an event.
      sse.sendHeaders();
      reply.raw.write(`retry: ${EVENTS_RETRY_MS}\n\n`);

      // Writes go out one after another, in the order the changes were heard.
      let writing: Promise<unknown> = Promise.resolve();
      const write = (message: Parameters<typeof sse.send>[0]) => {
        writing = writing.then(() => (sse.isConnected ? sse.send(message) : undefined)).catch(() => {});
        return writing;
      };
      const change = (event: ClinicEvent) =>
        void write({ id: String(event.event), event: EVENT_TYPES.change, data: event });
      let unsubscribe = () => {};
      const close = () => {
        unsubscribe();
        open.delete(close);
        void writing.then(() => sse.close()).catch(() => {});
      };
      const stream: HeldStream = {
        userId: staff.id,
        issuedAt: claims?.at ?? (claims?.iat ?? 0) * 1000,
        session: claims?.sid ?? null,
        change,
        resync: () => void write({ event: EVENT_TYPES.resync, data: {} }),
        end: (message) => {
          void write({ event: EVENT_TYPES.end, data: { message } });
          close();
        },
      };

      // What was missed and what comes next are taken in one step: nothing falls between them.
      const lastEventId = sse.lastEventId;
      const missed =
        lastEventId && /^\d+$/.test(lastEventId) ? hub.changesAfter(staff.clinicId, Number(lastEventId)) : [];
      unsubscribe = hub.subscribe(staff.clinicId, stream);
      open.add(close);
      sse.onClose(() => {
        unsubscribe();
        open.delete(close);
      });

      if (missed === null) stream.resync();
      else for (const event of missed) change(event);
    },
  );
}
