import {
  ACTIVITY_SEEN_URL,
  activityListSchema,
  activityQuerySchema,
  activitySeenSchema,
  dashboardStatsSchema,
  todayAppointmentsQuerySchema,
  todayAppointmentsSchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { clinicToday } from '../../db/clinicTime';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { markActivitySeen, readActivitySeen } from './activitySeen';
import { readActivity, readDayAppointments } from './dashboardData';
import { StatsCache } from './statsCache';

const TAGS = ['dashboard'];

/** Dashboard (docs/product.md, Screens; API calls): any signed-in user of the clinic, whatever the role. */
export function registerDashboardRoutes(
  app: FastifyInstance,
  db: Database,
  guard: Guard,
  options: { cacheStats: boolean; versionOf: (clinicId: number) => Promise<string> },
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // Per app, not per module: two apps in one process (tests) have two databases.
  const statsCache = new StatsCache(db, options.versionOf, Date.now, options.cacheStats);
  // A change made through this process shows on the next dashboard at once.
  app.addHook('onResponse', async (request) => {
    if (request.routeOptions.config?.leavesReadsAsTheyWere) return;
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.staff) {
      statsCache.invalidate(request.staff.clinicId);
    }
  });

  routes.get(
    '/api/dashboard/stats',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          "Stat cards (any role), 'today' in the clinic's time zone: Today's Appointments (not cancelled; change vs the same weekday last week), Pending Confirmations (pending from today on; change = pending in the next 7 days vs the previous 7, fewer is positive), Total Patients (active; change = new patients in the last 30 days, positive when not fewer than the 30 before), Active Dentists (change = added in the last 30 days)",
        security: SECURITY,
        response: { 200: dashboardStatsSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await statsCache.statsOf(guard.staffOf(request).clinicId) }),
  );

  routes.get(
    '/api/dashboard/appointments/today',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          "The clinic's appointments of today (its time zone), every status, in time order (any role); `limit` 1-1000, default 100",
        security: SECURITY,
        querystring: todayAppointmentsQuerySchema,
        response: { 200: todayAppointmentsSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { clinicId } = guard.staffOf(request);
      const today = await clinicToday(db, clinicId);
      return { data: await readDayAppointments(db, clinicId, today, request.query.limit) };
    },
  );

  routes.get(
    '/api/dashboard/activity',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          "The clinic's recent changes from the audit log, newest first, each with a readable `description` (any role); sign-ins and refused requests are left out; `limit` 1-50, default 10",
        security: SECURITY,
        querystring: activityQuerySchema,
        response: { 200: activityListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({
      data: await readActivity(db, guard.staffOf(request).clinicId, request.query.limit),
    }),
  );

  routes.get(
    ACTIVITY_SEEN_URL,
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          'The newest activity record (its id) the signed-in user has seen in the bell, kept for them on the server so each of their browsers agrees',
        security: SECURITY,
        response: { 200: activitySeenSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const staff = guard.staffOf(request);
      return { seen_id: await readActivitySeen(db, staff.clinicId, staff.id) };
    },
  );

  routes.put(
    ACTIVITY_SEEN_URL,
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          "Marks the clinic's activity seen up to a record (its id) for the signed-in user; the marker never moves back. Their other browsers hear an `activity_seen` change",
        security: SECURITY,
        body: activitySeenSchema,
        response: { 200: activitySeenSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const staff = guard.staffOf(request);
      return { seen_id: await markActivitySeen(db, staff.clinicId, staff.id, request.body.seen_id) };
    },
  );
}
