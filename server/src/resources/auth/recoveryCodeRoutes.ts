import { factorChangeSchema, recoveryCodesSchema } from '@dental/shared/domain';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readFactor, renewRecoveryCodes } from '../../auth/secondFactor';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import type { FactorChecks, FactorRoutes } from './secondFactorChecks';

const TAGS = ['auth'];

/** New recovery codes for a factor that is on; the old ones stop working (docs/product.md, Two-step sign-in). */
export function registerRecoveryCodeRoutes(
  { app, db, guard }: FactorRoutes,
  { proveIdentity, recordFactorChange, endOthers }: FactorChecks,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/auth/mfa/recovery-codes',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          'New recovery codes (any role, with a factor on): your `password` and a `code` (or `recovery_code`); the old codes stop working',
        security: SECURITY,
        body: factorChangeSchema,
        response: { 200: recoveryCodesSchema, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request) => {
      const staff = guard.staffOf(request);
      const factor = await readFactor(db, staff.clinicId, staff.id);
      if (!factor.totpSecret) throw app.httpErrors.conflict('Turn on two-step sign-in first.');
      await proveIdentity(request, staff, 'recovery_codes', request.body, factor);
      const codes = await db.transaction(async (tx) => {
        const fresh = await renewRecoveryCodes(tx, staff.clinicId, staff.id);
        await recordFactorChange(tx, request, staff, 'recovery_codes_renewed');
        if (request.body.end_other_sessions) await endOthers(tx, request, staff);
        return fresh;
      });
      return { recovery_codes: codes };
    },
  );
}
