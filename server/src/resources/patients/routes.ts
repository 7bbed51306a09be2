import {
  appointmentPageSchema,
  idParamsSchema,
  patientAppointmentsQuerySchema,
  patientListQuerySchema,
  patientPageSchema,
  patientWriteSchema,
  wirePatientSchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import { pageAnswer } from '../../db/cappedCount';
import type { Database } from '../../db/client';
import { errorResponses } from '../../plugins/errors';
import { listPage, rowRoutes } from '../rowRoutes';
import {
  createPatient,
  deletePatient,
  findPatient,
  listPatientAppointments,
  listPatients,
  PATIENT_NOT_FOUND,
  updatePatient,
} from './patientsData';

const TAGS = ['patients'];
const SECURITY = [{ bearerAuth: [] }];
const ROLES_NOTE = 'Admin, receptionist and dentist.';

/** Patients (spec §7): every role with the patients permission (all three). */
export function registerPatientsRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const permitted = guard.permitted('patients', 'manage patients');
  const patients = rowRoutes(app, guard, {
    path: '/api/patients',
    tags: TAGS,
    schema: wirePatientSchema,
    find: (clinicId, id) => findPatient(db, clinicId, id),
    notFound: PATIENT_NOT_FOUND,
  });
  const { actorOf } = patients;

  patients.getList({
    onRequest: permitted,
    cached: true,
    summary: `The clinic's patients, each with lastVisit and nextAppointment as GET /api/patients/{id}. \`search\`: every word typed starts a word of the name, of the e-mail before its @, or of the phone's digits (whole or a group), case-insensitively; \`total\` counts up to ten pages past the page asked for (200 for page 1 of 20), \`total_capped\` says when there are more; filter \`status\` (active|inactive); \`sort\` name (default), created_at, date_of_birth, '-' for descending; \`page\`, \`limit\` (1-100). In name order a full page carries \`next_cursor\`: the next page asked with it as \`after\` starts right after this page's last row, sought in the index rather than counted off from the first. ${ROLES_NOTE}`,
    query: patientListQuerySchema,
    page: patientPageSchema,
    codes: [400, 401, 403],
    list: async (request) =>
      pageAnswer(request.query, await listPatients(db, actorOf(request).clinicId, request.query)),
  });

  patients.getOne({
    onRequest: permitted,
    summary: `One patient. Derived from their appointments: \`lastVisit\` (YYYY-MM-DD of the latest completed appointment up to the clinic's today, or of any earlier one not cancelled; else null) and \`nextAppointment\` (\`{ id, date, time }\` of the earliest pending or confirmed appointment from the clinic's today on; else null). ${ROLES_NOTE}`,
    codes: [401, 403, 404],
  });

  routes.get(
    '/api/patients/:id/appointments',
    {
      onRequest: permitted,
      config: { clinicReadCache: true },
      schema: {
        tags: TAGS,
        summary: `A patient's appointments (every status), newest first (date, then time, descending), paged. ${ROLES_NOTE}`,
        security: SECURITY,
        params: idParamsSchema,
        querystring: patientAppointmentsQuerySchema,
        response: { 200: appointmentPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      listPage(
        request.query,
        await listPatientAppointments(db, actorOf(request).clinicId, request.params.id, request.query),
      ),
  );

  patients.createOne({
    onRequest: permitted,
    summary: `Add a patient: name, email, phone and dateOfBirth (not in the future) required; address, emergencyContact, medicalHistory optional. A new patient is active whatever \`status\` says; server-owned fields are ignored, other unknown fields refused (400). ${ROLES_NOTE}`,
    body: patientWriteSchema,
    codes: [400, 401, 403],
    create: (request) => createPatient(db, actorOf(request), request.body),
  });

  patients.writeOne({
    method: 'PUT',
    onRequest: permitted,
    summary: `Update a patient: the fields of creation (dateOfBirth not in the future), plus \`status\` active|inactive (absent keeps it). Server-owned fields (id, clinic_id, created_at, updated_at, lastVisit, nextAppointment) are ignored, so a PUT of what GET answered succeeds; other unknown fields are refused (400). ${ROLES_NOTE}`,
    body: patientWriteSchema,
    codes: [400, 401, 403, 404],
    write: (request, expected) =>
      updatePatient(db, actorOf(request), request.params.id, request.body, expected),
  });

  patients.deleteOne({
    onRequest: permitted,
    summary: `Delete a patient without appointments. One with appointments (of any status, cancelled included) is refused with 409: delete those appointments first, or set the patient inactive. ${ROLES_NOTE}`,
    codes: [401, 403, 404, 409],
    remove: (request, expected) => deletePatient(db, actorOf(request), request.params.id, expected),
    message: 'Patient deleted',
  });
}
