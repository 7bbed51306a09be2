import {
  appointmentListQuerySchema,
  appointmentPageSchema,
  appointmentStatusSchema,
  appointmentWriteSchema,
  overlappingAppointmentsSchema,
  overlappingQuerySchema,
  seriesScopeQuerySchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { rowRoutes } from '../rowRoutes';
import { listAppointments, listOverlapping, visitLookup } from './appointmentReads';
import { editSeriesFrom, setSeriesStatusFrom } from './seriesData';
import { registerSeriesRoutes } from './seriesRoutes';
import { createAppointment } from './visitBooking';
import { deleteAppointment, setAppointmentStatus, updateAppointment } from './visitChanges';

const TAGS = ['appointments'];
const ROLES_NOTE = 'Admin, receptionist and dentist.';
const SCOPE_NOTE =
  "`scope=following` (query) on a visit of a series changes it and every later visit of its series (by place) that is still pending or confirmed, in one transaction: all or none, a 409 naming the visit refused (`errors[0].field` `occurrences.<place - 1>.time`). If-Match is the clicked visit's.";
const CLASH_NOTE =
  "A visit holds its dentist's and its patient's time from its start for `duration` minutes (default: the treatment's length from Settings): two live visits of one dentist or one patient never overlap (touching is fine), and a 409 names the visit in the way. It must lie inside the dentist's open hours that day (the day's open slots, none on an inactive day, else their working hours within the practice's), or 409 names them; an admin or receptionist may book outside them with `outside_hours: true` and `outside_hours_reason`.";

/** Appointments (docs/product.md, API calls): every role with the appointments permission (all three). */
export function registerAppointmentsRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const permitted = guard.permitted('appointments', 'manage appointments');
  const appointments = rowRoutes(app, guard, db, { path: '/api/appointments', ...visitLookup });
  const { actorOf } = appointments;

  appointments.getList({
    onRequest: permitted,
    cached: true,
    summary: `The clinic's appointments. \`search\`: every word typed starts a word of the patient (as a patient search), of the dentist's name or of the treatment; \`total\` counts up to ten pages past the page asked for (200 for page 1 of 20), \`total_capped\` says when there are more; filters \`status\`, \`dentist_id\`, \`patient_id\`, \`date\`, \`from\`, \`to\`; \`sort\` date (default), patient, dentist, status, created_at, '-' for descending. In date order a full page carries \`next_cursor\`: the next page asked with it as \`after\` starts right after this page's last row, sought in the index rather than counted off from the first. ${ROLES_NOTE}`,
    query: appointmentListQuerySchema,
    page: appointmentPageSchema,
    codes: [400, 401, 403],
    read: listAppointments,
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

  registerSeriesRoutes(app, db, permitted, actorOf);

  appointments.getOne({
    onRequest: permitted,
    summary: `One appointment. ${ROLES_NOTE}`,
    codes: [401, 403, 404],
  });

  appointments.createOne({
    onRequest: permitted,
    summary: `Book an appointment: patient and phone (the clinic's patient of that name and phone, or a new one; or \`patient_id\`), date (today or later), time, dentist_id (an active dentist), treatment; notes optional. Always created pending. Inside an availability slot it books the slot. With \`waitlist_entry_id\` (an entry of the same patient) the entry leaves the waitlist in the same write: 409 when it is gone, 400 when it is another patient's. ${CLASH_NOTE} ${ROLES_NOTE}`,
    body: appointmentWriteSchema,
    codes: [400, 401, 403, 409],
    create: createAppointment,
  });

  appointments.writeOne({
    method: 'PUT',
    onRequest: permitted,
    summary: `Edit an appointment (the fields of booking; \`status\` optional, absent keeps it). Moving it frees the old slot and books the new one. ${SCOPE_NOTE} The following visits keep their own day and status and take the rest of the edit (patient, time, length, dentist, treatment, notes, outside hours). ${CLASH_NOTE} ${ROLES_NOTE}`,
    body: appointmentWriteSchema,
    query: seriesScopeQuerySchema,
    codes: [400, 401, 403, 404, 409],
    write: (db, actor, id, body, expected, query) =>
      query.scope === 'following'
        ? editSeriesFrom(db, actor, id, body, expected)
        : updateAppointment(db, actor, id, body, expected),
  });

  appointments.writeOne({
    method: 'PATCH',
    suffix: 'status',
    onRequest: permitted,
    summary: `Set the status (pending, confirmed, cancelled, completed); answers the updated appointment. Cancelling frees its slot; leaving cancelled books it again. ${SCOPE_NOTE} ${CLASH_NOTE} ${ROLES_NOTE}`,
    body: appointmentStatusSchema,
    query: seriesScopeQuerySchema,
    codes: [400, 401, 403, 404, 409],
    write: (db, actor, id, body, expected, query) =>
      query.scope === 'following'
        ? setSeriesStatusFrom(db, actor, id, body.status, expected)
        : setAppointmentStatus(db, actor, id, body.status, expected),
  });

  appointments.deleteOne({
    onRequest: permitted,
    summary: `Delete an appointment; its slot is freed. ${ROLES_NOTE}`,
    codes: [401, 403, 404],
    remove: deleteAppointment,
    message: 'Appointment deleted',
  });
}
