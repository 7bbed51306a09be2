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
import { type AuditProof, verifyAuditChain } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import type { ReadTrail } from '../../plugins/readTrail';
import { auditCsv, listAudit } from './auditData';

const TAGS = ['audit'];

/**
 * The reads that show patients' records, and what each shows: one patient's details or visits, or a
 * page of the patients list or its search (which names every patient it answered).
 */
const PATIENT_READS: Record<string, (params: { id?: string }, payload: unknown) => ReadTrailOf> = {
  '/api/patients/:id': (params) => ({ entityId: params.id ?? null, details: { opened: 'details' } }),
  '/api/patients/:id/appointments': (params) => ({
    entityId: params.id ?? null,
    details: { opened: 'appointments' },
  }),
  '/api/patients': (_params, payload) => ({
    entityId: null,
    details: { opened: 'list', patients: idsOf(payload) },
  }),
};
type ReadTrailOf = Pick<ReadTrail, 'entityId' | 'details'>;

/** The ids of a list answer's rows. */
function idsOf(payload: unknown): number[] {
  const rows = (payload as { data?: unknown } | null)?.data;
  return Array.isArray(rows) ? rows.map((row) => (row as { id: number }).id) : [];
}

/** The audit log (admins): who did and who looked at what, and whether the record was altered. */
export function registerAuditRoutes(
  app: FastifyInstance,
  db: Database,
  guard: Guard,
  proof: AuditProof,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const adminsOnly = guard.permitted('all', 'view the audit log');

  // Who read which patients' records: each answer of patients' data names them on the trail, recorded
  // before the answer leaves (plugins/readTrail.ts); the read cache keeps it with the answer it keeps.
  app.addHook('preSerialization', async (request, reply, payload) => {
    const readOf = PATIENT_READS[request.routeOptions.url ?? ''];
    if (!readOf || request.method !== 'GET' || reply.statusCode !== 200 || !request.staff) return payload;
    request.readTrail = {
      clinicId: request.staff.clinicId,
      userId: request.staff.id,
      entity: 'patient',
      ...readOf(request.params as { id?: string }, payload),
    };
    return payload;
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
      const staff = guard.staffOf(request);
      const csv = await auditCsv(db, staff.clinicId, request.query);
      request.readTrail = {
        clinicId: staff.clinicId,
        userId: staff.id,
        entity: 'audit',
        entityId: null,
        details: { download: 'csv', filters: request.query },
      };
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
      const check = await verifyAuditChain(db, guard.staffOf(request).clinicId, proof);
      const unfit = check.firstUnfit;
      return {
        records: check.records,
        holds: unfit === null,
        first_unfit: unfit && { id: unfit.id, place: unfit.place },
      };
    },
  );
}
