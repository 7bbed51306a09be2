import {
  appointmentListQuerySchema,
  appointmentPageSchema,
  appointmentSchema,
  appointmentStatusSchema,
  appointmentWriteSchema,
  overlappingAppointmentsSchema,
  overlappingQuerySchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import { pageAnswer } from '../../db/cappedCount';
import type { Database } from '../../db/client';
import { errorResponses } from '../../plugins/errors';
import { rowRoutes } from '../rowRoutes';
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
  const appointments = rowRoutes(app, guard, {
    path: '/api/appointments',
    tags: TAGS,
    schema: appointmentSchema,
    find: (clinicId, id) => findAppointment(db, clinicId, id),
    notFound: APPOINTMENT_NOT_FOUND,
  });
  const { actorOf } = appointments;

  appointments.getList({
    onRequest: permitted,
    cached: true,
    summary: `The clinic's appointments. \`search\`: every word typed starts a word of the patient (as a patient search), of the dentist's name or of the treatment; \`total\` counts up to ten pages past the page asked for (200 for page 1 of 20), \`total_capped\` says when there are more; filters \`status\`, \`dentist_id\`, \`patient_id\`, \`date\`, \`from\`, \`to\`; \`sort\` date (default), patient, dentist, status, created_at, '-' for descending. In date order a full page carries \`next_cursor\`: the next page asked with it as \`after\` starts right after this page's last row, sought in the index rather than counted off from the first. ${ROLES_NOTE}`,
    query: appointmentListQuerySchema,
    page: appointmentPageSchema,
    codes: [400, 401, 403],
    list: async (request) =>
      pageAnswer(request.query, await listAppointments(db, actorOf(request).clinicId, request.query)),
  });

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

  appointments.getOne({
    onRequest: permitted,
    summary: `One appointment. ${ROLES_NOTE}`,
    codes: [401, 403, 404],
  });

  appointments.createOne({
    onRequest: permitted,
    summary: `Book an appointment: patient and phone (the clinic's patient of that name and phone, or a new one; or \`patient_id\`), date (today or later), time, dentist_id (an active dentist), treatment; notes optional. Always created pending. Inside an availability slot it books the slot. ${CLASH_NOTE} ${ROLES_NOTE}`,
    body: appointmentWriteSchema,
    codes: [400, 401, 403, 409],
    create: (request) => createAppointment(db, actorOf(request), request.body),
  });

  appointments.writeOne({
    method: 'PUT',
    onRequest: permitted,
    summary: `Edit an appointment (the fields of booking; \`status\` optional, absent keeps it). Moving it frees the old slot and books the new one. ${CLASH_NOTE} ${ROLES_NOTE}`,
    body: appointmentWriteSchema,
    codes: [400, 401, 403, 404, 409],
    write: (request, expected) =>
      updateAppointment(db, actorOf(request), request.params.id, request.body, expected),
  });

  appointments.writeOne({
    method: 'PATCH',
    suffix: 'status',
    onRequest: permitted,
    summary: `Set the status (pending, confirmed, cancelled, completed); answers the updated appointment. Cancelling frees its slot; leaving cancelled books it again. ${CLASH_NOTE} ${ROLES_NOTE}`,
    body: appointmentStatusSchema,
    codes: [400, 401, 403, 404, 409],
    write: (request, expected) =>
      setAppointmentStatus(db, actorOf(request), request.params.id, request.body.status, expected),
  });

  appointments.deleteOne({
    onRequest: permitted,
    summary: `Delete an appointment; its slot is freed. ${ROLES_NOTE}`,
    codes: [401, 403, 404],
    remove: (request, expected) => deleteAppointment(db, actorOf(request), request.params.id, expected),
    message: 'Appointment deleted',
  });
}
