import {
  CALENDAR_MONTH_MAX_ROWS,
  calendarAppointmentsSchema,
  calendarAvailabilityQuerySchema,
  calendarAvailabilitySchema,
  calendarMonthQuerySchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { answerRows } from '../../plugins/responseSerialization';
import { readMonthAppointments, readMonthAvailability } from './calendarData';

const TAGS = ['calendar'];

/** Calendar (docs/product.md, API calls: Calendar): a month of the clinic at once, for every role. */
export function registerCalendarRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const calendar = guard.permitted('calendar', 'view the calendar');

  routes.get(
    '/api/calendar/appointments',
    {
      onRequest: calendar,
      config: { clinicReadCache: true },
      schema: {
        tags: TAGS,
        summary: `One month's appointments (admin, receptionist, dentist): \`month\` 1-12 and \`year\` 1900-2200 required, optional \`dentist_id\`; by date then time; all of the month by default, or \`page\` and \`limit\` (at most ${CALENDAR_MONTH_MAX_ROWS} a page), with the month's \`total\``,
        security: SECURITY,
        querystring: calendarMonthQuerySchema,
        response: { 200: calendarAppointmentsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { data, total } = await readMonthAppointments(db, guard.staffOf(request).clinicId, request.query);
      return { data: answerRows(data), total, page: request.query.page, limit: request.query.limit };
    },
  );

  routes.get(
    '/api/calendar/availability',
    {
      onRequest: calendar,
      config: { clinicReadCache: true },
      schema: {
        tags: TAGS,
        summary: `One month's availability days (admin, receptionist, dentist): \`month\` 1-12 and \`year\` 1900-2200 required, optional \`dentist_id\`; by date then dentist name, unpaged, at most ${CALENDAR_MONTH_MAX_ROWS} rows`,
        security: SECURITY,
        querystring: calendarAvailabilityQuerySchema,
        response: { 200: calendarAvailabilitySchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      data: await readMonthAvailability(db, guard.staffOf(request).clinicId, request.query),
    }),
  );
}
