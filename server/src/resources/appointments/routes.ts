import {
  appointmentListQuerySchema,
  appointmentPageSchema,
  appointmentSchema,
  appointmentStatusSchema,
  appointmentWriteSchema,
  idParamsSchema,
  overlappingAppointmentsSchema,
  overlappingQuerySchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import { pageAnswer } from '../../db/cappedCount';
import type { Database } from '../../db/client';
import { errorResponses } from '../../plugins/errors';
import { rowRoutes, versionedDeleteResponses, versionedWriteResponses } from '../rowRoutes';
import {
  APPOINTMENT_NOT_FOUND,
  createAppointment,
  deleteAppointment,
  findAppointment,
  listAppointments,
  listOverlapping,
  setAppointmentStatus,
  updateAppointment,
} from './appointmentsData';

const TAGS = ['appointments'];
const SECURITY = [{ bearerAuth: [] }];
const ROLES_NOTE = 'Admin, receptionist and dentist.';
const CLASH_NOTE =
  "A visit holds its dentist's and its patient's time from its start for `duration` minutes (default: the treatment's length from Settings): two live visits of one dentist or one patient never overlap (touching is fine), and a 409 names the visit in the way. It must lie inside the dentist's open hours that day (the day's open slots, none on an inactive day, else their working hours within the practice's), or 409 names them; an admin or receptionist may book outside them with `outside_hours: true` and `outside_hours_reason`.";

/** Appointments (spec §7): every role with the appointments permission (all three). */
export function registerAppointmentsRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const permitted = guard.permitted('appointments', 'manage appointments');
  const appointments = rowRoutes(
    guard,
    (clinicId, id) => findAppointment(db, clinicId, id),
    APPOINTMENT_NOT_FOUND,
  );
  const { actorOf } = appointments;

  routes.get(
    '/api/appointments',
    {
      onRequest: permitted,
      config: { clinicReadCache: true },
      schema: {
        tags: TAGS,
        summary: `The clinic's appointments. \`search\`: every word typed starts a word of the patient (as a patient search), of the dentist's name or of the treatment; \`total\` counts up to ten pages past the page asked for (200 for page 1 of 20), \`total_capped\` says when there are more; filters \`status\`, \`dentist_id\`, \`patient_id\`, \`date\`, \`from\`, \`to\`; \`sort\` date (default), patient, dentist, status, created_at, '-' for descending. In date order a full page carries \`next_cursor\`: the next page asked with it as \`after\` starts right after this page's last row, sought in the index rather than counted off from the first. ${ROLES_NOTE}`,
        security: SECURITY,
        querystring: appointmentListQuerySchema,
        response: { 200: appointmentPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      return pageAnswer(request.query, await listAppointments(db, actorOf(request).clinicId, request.query));
    },
  );

  routes.get(
    '/api/appointments/overlapping',
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `Live visits that overlapped another before overlaps were refused (an older database or import), in date order, up to \`limit\` (default 100): move or cancel one of each pair. ${ROLES_NOTE}`,
        security: SECURITY,
        querystring: overlappingQuerySchema,
        response: { 200: overlappingAppointmentsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listOverlapping(db, actorOf(request).clinicId, request.query.limit),
  );

  routes.get(
    '/api/appointments/:id',
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `One appointment. ${ROLES_NOTE}`,
        security: SECURITY,
        params: idParamsSchema,
        response: { 200: appointmentSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => appointments.rowOf(request),
  );

  routes.post(
    '/api/appointments',
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `Book an appointment: patient and phone (the clinic's patient of that name and phone, or a new one; or \`patient_id\`), date (today or later), time, dentist_id (an active dentist), treatment; notes optional. Always created pending. Inside an availability slot it books the slot. ${CLASH_NOTE} ${ROLES_NOTE}`,
        security: SECURITY,
        body: appointmentWriteSchema,
        response: { 201: appointmentSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createAppointment(db, actorOf(request), request.body)),
  );

  routes.put(
    '/api/appointments/:id',
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `Edit an appointment (the fields of booking; \`status\` optional, absent keeps it). Moving it frees the old slot and books the new one. ${CLASH_NOTE} ${ROLES_NOTE}`,
        security: SECURITY,
        params: idParamsSchema,
        body: appointmentWriteSchema,
        response: versionedWriteResponses(appointmentSchema, 400, 401, 403, 404, 409),
      },
    },
    async (request, reply) =>
      appointments.writeIfMatch(request, reply, (expected) =>
        updateAppointment(db, actorOf(request), request.params.id, request.body, expected),
      ),
  );

  routes.patch(
    '/api/appointments/:id/status',
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `Set the status (pending, confirmed, cancelled, completed); answers the updated appointment. Cancelling frees its slot; leaving cancelled books it again. ${CLASH_NOTE} ${ROLES_NOTE}`,
        security: SECURITY,
        params: idParamsSchema,
        body: appointmentStatusSchema,
        response: versionedWriteResponses(appointmentSchema, 400, 401, 403, 404, 409),
      },
    },
    async (request, reply) =>
      appointments.writeIfMatch(request, reply, (expected) =>
        setAppointmentStatus(db, actorOf(request), request.params.id, request.body.status, expected),
      ),
  );

  routes.delete(
    '/api/appointments/:id',
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `Delete an appointment; its slot is freed. ${ROLES_NOTE}`,
        security: SECURITY,
        params: idParamsSchema,
        response: versionedDeleteResponses(appointmentSchema, 401, 403, 404),
      },
    },
    async (request, reply) =>
      appointments.deleteIfMatch(
        request,
        reply,
        (expected) => deleteAppointment(db, actorOf(request), request.params.id, expected),
        'Appointment deleted',
      ),
  );
}
