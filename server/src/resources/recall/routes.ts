import {
  idParamsSchema,
  patientRecallListSchema,
  RECALL_TYPES_URL,
  RECALL_URL,
  recallContactSchema,
  recallPageSchema,
  recallQuerySchema,
  recallReminderAnswerSchema,
  recallRowSchema,
  recallTypeBodySchema,
  recallTypeListSchema,
  recallTypeSchema,
  recallUpdateSchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { staleWriteResponse, writeIfMatch } from '../../plugins/versions';
import { actorOfStaff } from '../actorAudit';
import { PATIENT_NOT_FOUND } from '../patients/patientsData';
import {
  createRecallType,
  findRecall,
  findRecallType,
  listPatientRecall,
  listRecall,
  listRecallTypes,
  markContacted,
  RECALL_NOT_FOUND,
  RECALL_TYPE_NOT_FOUND,
  sendRecallReminder,
  updateRecall,
  updateRecallType,
} from './recallData';

const TAGS = ['recall'];
const recallParamsSchema = z.object({
  patientId: z.coerce.number().int().positive().max(2147483647),
  typeId: z.coerce.number().int().positive().max(2147483647),
});

/**
 * Recall (issue: keep the chairs full): the clinic's recall types (admins change them) and the recall
 * list staff work through, calling, reminding, snoozing and booking patients who are due.
 */
export function registerRecallRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const adminOnly = guard.permitted('all', 'change recall types');
  const withPatients = guard.permitted('patients', 'work the recall list');
  const actorOf = (request: Parameters<Guard['staffOf']>[0]) => actorOfStaff(guard.staffOf(request), request);

  routes.get(
    RECALL_TYPES_URL,
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          "The clinic's recall types (any role): name, the treatment it books, its interval, on or off",
        security: SECURITY,
        response: { 200: recallTypeListSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await listRecallTypes(db, guard.staffOf(request).clinicId) }),
  );

  routes.post(
    RECALL_TYPES_URL,
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary:
          "Add a recall type (admin): its patients' due dates follow from their last completed visit of its treatment",
        security: SECURITY,
        body: recallTypeBodySchema,
        response: { 201: recallTypeSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createRecallType(db, actorOf(request), request.body)),
  );

  routes.put(
    `${RECALL_TYPES_URL}/:id`,
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary:
          'Change a recall type (admin) under If-Match: a new interval moves the due dates that follow visits; a new treatment takes each patient’s last visit of it',
        security: SECURITY,
        params: idParamsSchema,
        body: recallTypeBodySchema,
        response: {
          200: recallTypeSchema,
          ...staleWriteResponse(recallTypeSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) =>
      writeIfMatch(
        request,
        reply,
        {
          current: () => findRecallType(db, guard.staffOf(request).clinicId, request.params.id),
          notFound: RECALL_TYPE_NOT_FOUND,
        },
        (expected) => updateRecallType(db, actorOf(request), request.params.id, request.body, expected),
      ),
  );

  routes.get(
    RECALL_URL,
    {
      onRequest: withPatients,
      schema: {
        tags: TAGS,
        summary:
          'The recall list (admin, receptionist, dentist): patients due by `due_by` (default in 30 days; overdue ones too unless `due_from`), by `type_id`, `dentist_id` (last seen), `scheduled`, `contacted` (yes|no) and `search`; soonest first',
        security: SECURITY,
        querystring: recallQuerySchema,
        response: { 200: recallPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const page = await listRecall(db, guard.staffOf(request).clinicId, request.query);
      return { ...page, page: request.query.page, limit: request.query.limit };
    },
  );

  routes.get(
    '/api/patients/:id/recall',
    {
      onRequest: withPatients,
      schema: {
        tags: TAGS,
        summary:
          "One patient's recall of each type that is on (admin, receptionist, dentist): due date, snooze, booked visit, last contact, on or off for them",
        security: SECURITY,
        params: idParamsSchema,
        response: { 200: patientRecallListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const data = await listPatientRecall(db, guard.staffOf(request).clinicId, request.params.id);
      if (!data) throw app.httpErrors.notFound(PATIENT_NOT_FOUND);
      return { data };
    },
  );

  routes.patch(
    `${RECALL_URL}/:patientId/:typeId`,
    {
      onRequest: withPatients,
      schema: {
        tags: TAGS,
        summary:
          "A patient's recall under If-Match: `due_date` set by hand, `snoozed_until` (null ends it), `active` (off for this patient), `note`",
        security: SECURITY,
        params: recallParamsSchema,
        body: recallUpdateSchema,
        response: {
          200: recallRowSchema,
          ...staleWriteResponse(recallRowSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { patientId, typeId } = request.params;
      return writeIfMatch(
        request,
        reply,
        {
          current: () => findRecall(db, guard.staffOf(request).clinicId, patientId, typeId),
          notFound: RECALL_NOT_FOUND,
        },
        (expected) => updateRecall(db, actorOf(request), patientId, typeId, request.body, expected),
      );
    },
  );

  routes.post(
    `${RECALL_URL}/:patientId/:typeId/contact`,
    {
      onRequest: withPatients,
      schema: {
        tags: TAGS,
        summary: 'The patient was called about their recall, with a `note`',
        security: SECURITY,
        params: recallParamsSchema,
        body: recallContactSchema,
        response: { 200: recallRowSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      markContacted(db, actorOf(request), request.params.patientId, request.params.typeId, request.body.note),
  );

  routes.post(
    `${RECALL_URL}/:patientId/:typeId/reminder`,
    {
      onRequest: withPatients,
      schema: {
        tags: TAGS,
        summary:
          'Send the patient a reminder that they are due, through the outbox: by e-mail and SMS as the clinic’s reminder switches allow and the patient has addresses (409 when none can go)',
        security: SECURITY,
        params: recallParamsSchema,
        response: { 200: recallReminderAnswerSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) =>
      sendRecallReminder(db, actorOf(request), request.params.patientId, request.params.typeId),
  );
}
