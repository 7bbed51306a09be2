import {
  authResponseSchema,
  MFA_TOKEN_EXPIRED_MESSAGE,
  recoveryCodesSchema,
  totpEnableSchema,
  totpSetupRequestSchema,
  totpSetupSchema,
  WRONG_CODE_MESSAGE,
} from '@dental/shared/domain';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  confirmTotpSetup,
  newTotpSecret,
  otpauthUrl,
  readFactor,
  renewRecoveryCodes,
  startTotpSetup,
} from '../../auth/secondFactor';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { type FactorChecks, type FactorRoutes, fieldError } from './secondFactorChecks';

const TAGS = ['auth'];

/**
 * Setting up an authenticator app: a new key, then its first code turns the factor on, signed in or
 * at the sign-in's enrolment step (docs/product.md, Two-step sign-in).
 */
export function registerTotpSetupRoutes(
  { app, db, steps, factorSeal }: FactorRoutes,
  { signedInOrEnrolling, accountOf, proveIdentity, recordFactorChange, endOthers }: FactorChecks,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/auth/mfa/totp/setup',
    {
      onRequest: signedInOrEnrolling,
      schema: {
        tags: TAGS,
        summary:
          'Start setting up an authenticator app: answers a new key as text and as an `otpauth://` address for a QR code. Signed in, send your `password` (and a `code` when a factor is on already); at the sign-in enrolment step, the enrolment token is the bearer and nothing else is needed',
        security: SECURITY,
        body: totpSetupRequestSchema.optional(),
        response: { 200: totpSetupSchema, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request) => {
      const staff = await accountOf(request);
      if (request.enrolling) {
        const factor = await readFactor(db, staff.clinicId, staff.id);
        if (factor.totpSecret)
          throw app.httpErrors.conflict('A second factor is on already: sign in with it.');
      } else {
        await proveIdentity(request, staff, 'factor_setup', request.body ?? {});
      }
      const secret = newTotpSecret();
      await startTotpSetup(db, factorSeal, staff.clinicId, staff.id, secret);
      return { secret, otpauth_url: otpauthUrl(secret, staff.username, staff.clinicName) };
    },
  );

  routes.post(
    '/auth/mfa/totp/enable',
    {
      onRequest: signedInOrEnrolling,
      schema: {
        tags: TAGS,
        summary:
          "Confirm the new key with a first `code`: the factor is on, and 10 single-use recovery codes are answered once. At the sign-in's enrolment step the answer also signs you in. `end_other_sessions` signs your other browsers out",
        security: SECURITY,
        body: totpEnableSchema,
        response: {
          200: z.union([recoveryCodesSchema.extend(authResponseSchema.shape), recoveryCodesSchema]),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const staff = await accountOf(request);
      const account = { clinicId: staff.clinicId, id: staff.id, lockedUntil: null };
      await steps.refuseWhileLocked(account);
      const codes = await db.transaction(async (tx) => {
        if (!(await confirmTotpSetup(tx, factorSeal, staff.clinicId, staff.id, request.body.code)))
          return null;
        const fresh = await renewRecoveryCodes(tx, staff.clinicId, staff.id);
        await recordFactorChange(tx, request, staff, 'mfa_enabled');
        if (request.staff && request.body.end_other_sessions) await endOthers(tx, request, staff);
        return fresh;
      });
      if (!codes) {
        await steps.countFailure(request, account, 'totp', request.enrolling ? undefined : 'factor_setup');
        throw fieldError('code', WRONG_CODE_MESSAGE);
      }
      if (!request.enrolling) return { recovery_codes: codes };
      // The enrolment token signs in once, as the code step's does.
      if (!(await steps.spendSecondStep(request.enrolling.claims))) {
        throw app.httpErrors.unauthorized(MFA_TOKEN_EXPIRED_MESSAGE);
      }
      return {
        recovery_codes: codes,
        ...(await steps.finish(request, reply, account, request.enrolling.remember, 'totp')),
      };
    },
  );
}
