import { factorStatusSchema } from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FactorSeal } from '../../auth/factorSeal';
import type { Guard } from '../../auth/guard';
import { readFactor } from '../../auth/secondFactor';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { registerCodeStepRoute } from './codeStepRoutes';
import { registerFactorOffRoute, registerFactorResetRoute } from './factorOffRoutes';
import { registerRecoveryCodeRoutes } from './recoveryCodeRoutes';
import { factorChecksOf } from './secondFactorChecks';
import type { SignInSteps } from './signIn';
import { registerTotpSetupRoutes } from './totpSetupRoutes';

const TAGS = ['auth'];

/**
 * The second factor: its state, sign-in's code step, setting up and turning off an authenticator
 * app, recovery codes, and an administrator's reset of a user's factor. Registered in this order, the
 * order the API's description lists them in.
 */
export function registerSecondFactorRoutes(
  app: FastifyInstance,
  db: Database,
  guard: Guard,
  config: AppConfig,
  steps: SignInSteps,
  factorSeal: FactorSeal,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  app.decorateRequest('enrolling', null);
  const context = { app, db, guard, config, steps, factorSeal };
  const checks = factorChecksOf(context);
  const { policyCovers } = checks;

  routes.get(
    '/auth/mfa',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          'Your second factor (any role): whether it is on, since when, recovery codes left, and whether your clinic requires one',
        security: SECURITY,
        response: { 200: factorStatusSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const staff = guard.staffOf(request);
      const factor = await readFactor(db, staff.clinicId, staff.id);
      return {
        totp: factor.totpSecret !== null,
        enabled_at: factor.enabledAt?.toISOString() ?? null,
        recovery_codes_left: factor.totpSecret ? factor.recoveryCodesLeft : 0,
        required: await policyCovers(staff),
      };
    },
  );

  registerCodeStepRoute(context);
  registerTotpSetupRoutes(context, checks);
  registerFactorOffRoute(context, checks);
  registerRecoveryCodeRoutes(context, checks);
  registerFactorResetRoute(context, checks);
}
