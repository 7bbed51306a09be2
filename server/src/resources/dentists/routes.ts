import {
  dentistAppointmentsPageSchema,
  dentistAppointmentsQuerySchema,
  dentistListQuerySchema,
  dentistPageSchema,
  dentistWriteSchema,
  freeTimesQuerySchema,
  freeTimesSchema,
  idParamsSchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { freeTimesOf } from '../availability/openHours';
import { rowRoutes } from '../rowRoutes';
import {
  DENTIST_NOT_FOUND,
  dentistDaysOf,
  dentistLookup,
  listDentistAppointments,
  listDentists,
} from './dentistReads';
import { createDentist, deleteDentist, updateDentist } from './dentistWrites';

const TAGS = ['dentists'];

const BODY_RULES =
  'name (1-100), email (unique in the clinic, any case: 409), phone, specialty (one of the specializations), license (1-50, unique in the clinic, any case: 409), years_of_experience (0-70), working_days (distinct day numbers 1 Monday … 7 Sunday, answered sorted), status (active|inactive). working_hours and days_per_week are derived from working_days; id, timestamps and derived fields in a body are ignored';

/** Dentists (docs/product.md, API calls: Dentists): every signed-in role reads; only an admin writes. */
export function registerDentistsRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const adminOnly = guard.permitted('dentists', 'manage dentists');
  const dentists = rowRoutes(app, guard, db, { path: '/api/dentists', ...dentistLookup });
  const { actorOf } = dentists;

  dentists.getList({
    onRequest: guard.authenticated,
    cached: true,
    summary:
      "The clinic's dentists (any signed-in role): `search` matches name, e-mail or license; filters `status` (active|inactive) and `specialty`; `sort` name (default), years_of_experience, specialty, created_at, '-' for descending",
    query: dentistListQuerySchema,
    page: dentistPageSchema,
    codes: [400, 401],
    read: listDentists,
  });

  dentists.getOne({
    onRequest: guard.authenticated,
    summary: 'One dentist of the clinic (any signed-in role)',
    codes: [401, 404],
  });

  routes.get(
    '/api/dentists/:id/free-times',
    {
      onRequest: guard.permitted('appointments', 'book appointments'),
      schema: {
        tags: TAGS,
        summary:
          "The starts on the clinic's booking grid (Settings, 15 minutes by default) where a visit of `duration` minutes (default: `treatment`'s length, else the shortest treatment's) fits the dentist's open hours that day, the dentist's part of it (Settings) meets none of their other visits' parts, the patient (with `patient_id`) is free throughout, and a chair in service (`chair_id`, or any) is free for the visit and the clinic's turnover; `slots` names the chair each time would take; `except_id` counts a visit being moved as gone. The past hours of today are left out. With no time, `reason` and `message` say why: not_working_day, day_inactive, practice_closed, fully_booked, day_passed",
        security: SECURITY,
        params: idParamsSchema,
        querystring: freeTimesQuerySchema,
        response: { 200: freeTimesSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { clinicId } = actorOf(request);
      const dentist = await dentistDaysOf(db, clinicId, request.params.id);
      if (!dentist) throw app.httpErrors.notFound(DENTIST_NOT_FOUND);
      const { date, duration, treatment, except_id, patient_id, chair_id } = request.query;
      return freeTimesOf(db, clinicId, dentist, {
        date,
        duration,
        treatment,
        exceptId: except_id,
        patientId: patient_id,
        chairId: chair_id,
      });
    },
  );

  dentists.listOf({
    suffix: 'appointments',
    onRequest: guard.authenticated,
    cached: true,
    summary:
      "A dentist's appointments (any signed-in role), by date then time: an exact `date` or a `from`/`to` range (inclusive), a `status`; paged",
    query: dentistAppointmentsQuerySchema,
    page: dentistAppointmentsPageSchema,
    codes: [400, 401, 404],
    read: listDentistAppointments,
  });

  dentists.createOne({
    onRequest: adminOnly,
    summary: `Add a dentist (admin). ${BODY_RULES}. Left out: years_of_experience 0, working_days '12345', status active`,
    body: dentistWriteSchema,
    codes: [400, 401, 403, 409],
    create: createDentist,
  });

  dentists.writeOne({
    method: 'PUT',
    onRequest: adminOnly,
    summary: `Update a dentist (admin). ${BODY_RULES}. Left out: years_of_experience, working_days and status keep their value`,
    body: dentistWriteSchema,
    codes: [400, 401, 403, 404, 409],
    write: updateDentist,
  });

  dentists.deleteOne({
    onRequest: adminOnly,
    summary:
      "Delete a dentist with their availability and calendar feeds (admin); a user account linked to them is unlinked. A dentist with appointments to come is kept (409): move or cancel them, or set the dentist inactive. Past and cancelled appointments stay in the clinic's records with the dentist's name, while the dentist leaves every list, choice and count and their e-mail and license are free again",
    codes: [401, 403, 404, 409],
    remove: deleteDentist,
    message: 'Dentist deleted',
  });
}
