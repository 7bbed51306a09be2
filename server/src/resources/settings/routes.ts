import { practiceSettingsSchema, practiceSettingsUpdateSchema } from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { staleWriteResponse, writeIfMatch } from '../../plugins/versions';
import { actorOfStaff } from '../actorAudit';
import { readSettings, type SettingsFollower, saveSettings } from './settingsData';

const TAGS = ['settings'];

/**
 * Practice settings of the caller's clinic (docs/product.md, Records and their fields): every role reads them, an admin saves them.
 * `followers` run in each save's transaction (the reminders follow a new lead time or flag; a
 * tightened two-step policy ends the password-only sessions it now covers).
 */
export function registerSettingsRoutes(
  app: FastifyInstance,
  db: Database,
  guard: Guard,
  followers: readonly SettingsFollower[],
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/settings',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          "The clinic's practice settings (any role): name, contact, working hours per weekday, notification flags, time zone, visit lengths, booking grid, turnover between visits and each treatment's dentist part (`dentistParts`, minutes from the visit's start; the whole visit unless set); defaults until an admin saves them",
        security: SECURITY,
        response: { 200: practiceSettingsSchema, ...errorResponses(401) },
      },
    },
    async (request) => readSettings(db, guard.staffOf(request).clinicId),
  );

  routes.put(
    '/api/settings',
    {
      onRequest: guard.permitted('all', 'change the practice settings'),
      schema: {
        tags: TAGS,
        summary:
          "Save the clinic's practice settings (admin). Fields left out keep their value; an open day ends after it starts; `timeZone` is an IANA name and sets the clinic's 'today'; `turnoverMinutes` is 0-60 in steps of 5; each treatment given in `dentistParts` has both ends, 0 ≤ dentistFrom < dentistTo ≤ its length (as saved with this request), and a length may not be shortened below its part's end. With `If-Match` naming an older version than the saved one: 412 with the current settings, nothing saved",
        security: SECURITY,
        body: practiceSettingsUpdateSchema,
        response: {
          200: practiceSettingsSchema,
          ...errorResponses(400, 401, 403),
          ...staleWriteResponse(practiceSettingsSchema),
        },
      },
    },
    async (request, reply) => {
      const staff = guard.staffOf(request);
      return writeIfMatch(
        request,
        reply,
        { current: () => readSettings(db, staff.clinicId), notFound: 'Clinic not found' },
        async (expected) => {
          const saved = await saveSettings(
            db,
            actorOfStaff(staff, request),
            request.body,
            followers,
            expected,
            request.accessClaims ? (request.accessClaims.sid ?? null) : null,
          );
          // A save naming the two-step policy may have ended sessions: this process forgets them now.
          if (request.body.mfaRequired !== undefined) guard.sessionsEnded(staff.clinicId);
          return saved;
        },
      );
    },
  );
}
