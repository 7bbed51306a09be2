import {
  appointmentPageSchema,
  patientAppointmentsQuerySchema,
  patientListQuerySchema,
  patientPageSchema,
  patientWriteSchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { rowRoutes } from '../rowRoutes';
import {
  createPatient,
  deletePatient,
  listPatientAppointments,
  listPatients,
  patientLookup,
  updatePatient,
} from './patientsData';

const ROLES_NOTE = 'Admin, receptionist and dentist.';

/** Patients (docs/product.md, API calls): every role with the patients permission (all three). */
export function registerPatientsRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const permitted = guard.permitted('patients', 'manage patients');
  const patients = rowRoutes(app, guard, db, { path: '/api/patients', ...patientLookup });

  patients.getList({
    onRequest: permitted,
    cached: true,
    summary: `The clinic's patients, each with lastVisit and nextAppointment as GET /api/patients/{id}. \`search\`: every word typed starts a word of the name, of the e-mail before its @, or of the phone's digits (whole or a group), case-insensitively; \`total\` counts up to ten pages past the page asked for (200 for page 1 of 20), \`total_capped\` says when there are more; filter \`status\` (active|inactive); \`sort\` name (default), created_at, date_of_birth, '-' for descending; \`page\`, \`limit\` (1-100). In name order a full page carries \`next_cursor\`: the next page asked with it as \`after\` starts right after this page's last row, sought in the index rather than counted off from the first. ${ROLES_NOTE}`,
    query: patientListQuerySchema,
    page: patientPageSchema,
    codes: [400, 401, 403],
    read: listPatients,
  });

  patients.getOne({
    onRequest: permitted,
    summary: `One patient. Derived from their appointments: \`lastVisit\` (YYYY-MM-DD of the latest completed appointment up to the clinic's today, or of any earlier one not cancelled; else null) and \`nextAppointment\` (\`{ id, date, time }\` of the earliest pending or confirmed appointment from the clinic's today on; else null). ${ROLES_NOTE}`,
    codes: [401, 403, 404],
  });

  patients.listOf({
    suffix: 'appointments',
    onRequest: permitted,
    cached: true,
    summary: `A patient's appointments (every status), newest first (date, then time, descending), paged. ${ROLES_NOTE}`,
    query: patientAppointmentsQuerySchema,
    page: appointmentPageSchema,
    codes: [400, 401, 403, 404],
    read: listPatientAppointments,
  });

  patients.createOne({
    onRequest: permitted,
    summary: `Add a patient: name, email, phone and dateOfBirth (not in the future) required; address, emergencyContact, medicalHistory optional. A new patient is active whatever \`status\` says; server-owned fields are ignored, other unknown fields refused (400). ${ROLES_NOTE}`,
    body: patientWriteSchema,
    codes: [400, 401, 403],
    create: createPatient,
  });

  patients.writeOne({
    method: 'PUT',
    onRequest: permitted,
    summary: `Update a patient: the fields of creation (dateOfBirth not in the future), plus \`status\` active|inactive (absent keeps it). Server-owned fields (id, clinic_id, created_at, updated_at, lastVisit, nextAppointment) are ignored, so a PUT of what GET answered succeeds; other unknown fields are refused (400). ${ROLES_NOTE}`,
    body: patientWriteSchema,
    codes: [400, 401, 403, 404],
    write: updatePatient,
  });

  patients.deleteOne({
    onRequest: permitted,
    summary: `Delete a patient without appointments. One with appointments (of any status, cancelled included) is refused with 409: delete those appointments first, or set the patient inactive. ${ROLES_NOTE}`,
    codes: [401, 403, 404, 409],
    remove: deletePatient,
    message: 'Patient deleted',
  });
}
