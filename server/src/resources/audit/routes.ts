import {
  AUDIT_CSV_URL,
  AUDIT_URL,
  AUDIT_VERIFY_URL,
  auditChainCheckSchema,
  auditPageSchema,
  auditQuerySchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import { recordAudit, verifyAuditChain } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { errorResponses } from '../../plugins/errors';
import { auditCsv, listAudit } from './auditData';

const TAGS = ['audit'];

/** The reads that show one patient's record, and what each shows. */
const PATIENT_READS: Record<string, string> = {
  '/api/patients/:id': 'details',
  '/api/patients/:id/appointments': 'appointments',
};
const SECURITY = [{ bearerAuth: [] }];

/** The audit log (admins): who did and who looked at what, and whether the record was altered. */
export function registerAuditRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const adminsOnly = guard.permitted('all', 'view the audit log');

  // Who opened a patient's record: each answer of one patient's details or history is recorded
  // once it has been sent (the reader never waits for it).
  app.addHook('onResponse', async (request, reply) => {
    const opened = PATIENT_READS[request.routeOptions.url ?? ''];
    if (!opened || request.method !== 'GET' || reply.statusCode !== 200 || !request.staff) return;
    const { id } = request.params as { id?: string };
    await recordAudit(db, {
      clinicId: request.staff.clinicId,
      userId: request.staff.id,
      action: 'view',
      entity: 'patient',
      entityId: id ?? null,
      details: { opened },
    }).catch((error: unknown) => request.log.error({ err: error }, 'recording a read of a patient failed'));
  });

  routes.get(
    AUDIT_URL,
    {
      onRequest: adminsOnly,
      schema: {
        tags: TAGS,
        summary:
          "The clinic's audit records, newest first (admin): filters `user_id`, `patient_id`, `action`, `from` and `to` (days in the clinic's time zone), paged",
        security: SECURITY,
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const filters = request.query;
      const page = await listAudit(db, guard.staffOf(request).clinicId, filters);
      return {
        data: page.data,
        total: page.total.total,
        ...(page.total.capped ? { total_capped: true } : {}),
        page: filters.page,
        limit: filters.limit,
      };
    },
  );

  routes.get(
    AUDIT_CSV_URL,
    {
      onRequest: adminsOnly,
      schema: {
        tags: TAGS,
        summary:
          'Every audit record the filters of GET /api/audit show (10,000 at most), newest first, as a CSV download (admin)',
        security: SECURITY,
        querystring: auditQuerySchema.omit({ page: true, limit: true }),
      },
    },
    async (request, reply) => {
      const csv = await auditCsv(db, guard.staffOf(request).clinicId, request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.csv"')
        .send(csv);
    },
  );

  routes.get(
    AUDIT_VERIFY_URL,
    {
      onRequest: adminsOnly,
      schema: {
        tags: TAGS,
        summary:
          "Checks the clinic's chain of audit records (admin): each record's hash must follow from the one before it; names the first record that does not fit",
        security: SECURITY,
        response: { 200: auditChainCheckSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const check = await verifyAuditChain(db, guard.staffOf(request).clinicId);
      return { records: check.records, holds: check.firstUnfit === null, first_unfit: check.firstUnfit };
    },
  );
}
