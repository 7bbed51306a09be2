import { factorChangeSchema, idParamsSchema, MFA_REQUIRED_CANNOT_DISABLE } from '@dental/shared/domain';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { revokeUserSessions } from '../../auth/refreshTokens';
import { removeFactor } from '../../auth/secondFactor';
import { findStaff } from '../../auth/staff';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import type { FactorChecks, FactorRoutes } from './secondFactorChecks';

const TAGS = ['auth'];
const messageSchema = z.object({ message: z.string() });

/** Turning one's own authenticator off, when the clinic does not require it (docs/product.md, Two-step sign-in). */
export function registerFactorOffRoute(
  { app, db, guard }: FactorRoutes,
  { policyCovers, proveIdentity, recordFactorChange, endOthers }: FactorChecks,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.delete(
    '/auth/mfa/totp',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          'Turn your authenticator off (any role): your `password` and a `code` (or `recovery_code`); refused while your clinic requires a factor for you. `end_other_sessions` signs your other browsers out',
        security: SECURITY,
        body: factorChangeSchema,
        response: { 200: messageSchema, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request) => {
      const staff = guard.staffOf(request);
      if (await policyCovers(staff)) throw app.httpErrors.conflict(MFA_REQUIRED_CANNOT_DISABLE);
      await proveIdentity(request, staff, 'factor_off', request.body);
      await db.transaction(async (tx) => {
        await removeFactor(tx, staff.clinicId, staff.id);
        await recordFactorChange(tx, request, staff, 'mfa_disabled');
        if (request.body.end_other_sessions) await endOthers(tx, request, staff);
      });
      return { message: 'Two-step sign-in is off.' };
    },
  );
}

/** An administrator's reset of a user's factor: it goes with their sessions (docs/product.md, Two-step sign-in). */
export function registerFactorResetRoute(
  { app, db, guard }: FactorRoutes,
  { recordFactorChange }: FactorChecks,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.delete(
    '/api/users/:id/mfa',
    {
      onRequest: guard.permitted('all', "reset users' second factor"),
      schema: {
        tags: ['users'],
        summary:
          "Reset a user's second factor (admin): their authenticator and recovery codes go and their sessions end; they set one up again at their next sign-in when the clinic requires it",
        security: SECURITY,
        params: idParamsSchema,
        response: { 200: messageSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const admin = guard.staffOf(request);
      const user = await findStaff(db, admin.clinicId, request.params.id);
      if (!user) throw app.httpErrors.notFound('User not found');
      await db.transaction(async (tx) => {
        await removeFactor(tx, user.clinicId, user.id);
        await revokeUserSessions(tx, user.clinicId, user.id, 'factor_changed');
        await recordFactorChange(tx, request, user, 'mfa_reset', admin.id);
      });
      return { message: `${user.name}'s two-step sign-in was reset; they were signed out.` };
    },
  );
}
