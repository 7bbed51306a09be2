import {
  idParamsSchema,
  OUTBOX_SHOWN_DAYS,
  outboxListQuerySchema,
  outboxPageSchema,
  type WireOutboxMessage,
  wireOutboxMessageSchema,
} from '@dental/shared/domain';
import { and, count, desc, eq, gte, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { outbox } from '../../db/schema';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { actorOfStaff, recordActorAudit } from '../actorAudit';

const TAGS = ['notifications'];

function toWire(row: typeof outbox.$inferSelect): WireOutboxMessage {
  return {
    id: row.id,
    kind: row.kind as WireOutboxMessage['kind'],
    channel: row.channel as WireOutboxMessage['channel'],
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    appointment_id: row.appointmentId,
    patient_id: row.patientId,
    due_at: row.dueAt.toISOString(),
    state: row.state as WireOutboxMessage['state'],
    reason: row.reason,
    attempts: row.attempts,
    last_error: row.lastError,
    sent_at: row.sentAt ? row.sentAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The clinic's outbox (Settings, Notifications): what was sent, to whom, when, and what failed. */
export function registerOutboxRoutes(
  app: FastifyInstance,
  db: Database,
  guard: Guard,
  wakeSender: () => void,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const admin = guard.permitted('all', "read the clinic's outbox");

  routes.get(
    '/api/outbox',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: `The reminders and alerts of the last ${OUTBOX_SHOWN_DAYS} days, newest first (admin); filter \`state\` (pending, sent, failed, skipped); paged`,
        security: SECURITY,
        querystring: outboxListQuerySchema,
        response: { 200: outboxPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { clinicId } = guard.staffOf(request);
      const since = new Date(Date.now() - OUTBOX_SHOWN_DAYS * 86_400_000);
      const conditions: SQL[] = [eq(outbox.clinicId, clinicId), gte(outbox.createdAt, since)];
      if (request.query.state) conditions.push(eq(outbox.state, request.query.state));
      const where = and(...conditions);
      const [total] = await db.select({ total: count() }).from(outbox).where(where);
      const rows = await db
        .select()
        .from(outbox)
        .where(where)
        .orderBy(desc(outbox.createdAt), desc(outbox.id))
        .limit(request.query.limit)
        .offset((request.query.page - 1) * request.query.limit);
      return {
        data: rows.map(toWire),
        total: total?.total ?? 0,
        page: request.query.page,
        limit: request.query.limit,
      };
    },
  );

  routes.post(
    '/api/outbox/:id/retry',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary:
          'Send a failed message again (admin): it is tried afresh, up to five times. 409 for one that has not failed',
        security: SECURITY,
        params: idParamsSchema,
        response: { 200: wireOutboxMessageSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const staff = guard.staffOf(request);
      const where = and(eq(outbox.clinicId, staff.clinicId), eq(outbox.id, request.params.id));
      const retried = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(outbox).where(where).for('update');
        if (!row) throw app.httpErrors.notFound('Message not found');
        if (row.state !== 'failed')
          throw app.httpErrors.conflict(`Only a failed message is sent again; this one is ${row.state}`);
        const [updated] = await tx
          .update(outbox)
          .set({
            state: 'pending',
            attempts: 0,
            nextAttemptAt: new Date(),
            claimedUntil: null,
            updatedAt: new Date(),
          })
          .where(where)
          .returning();
        await recordActorAudit(tx, actorOfStaff(staff, request), {
          action: 'update',
          entity: 'outbox',
          entityId: row.id,
          details: { name: `a message to ${row.recipient}`, changed: ['state'] },
        });
        return updated as typeof outbox.$inferSelect;
      });
      wakeSender();
      return toWire(retried);
    },
  );
}
