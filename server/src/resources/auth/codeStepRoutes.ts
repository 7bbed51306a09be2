import {
  authResponseSchema,
  MFA_TOKEN_EXPIRED_MESSAGE,
  mfaVerifySchema,
  WRONG_CODE_MESSAGE,
  WRONG_RECOVERY_CODE_MESSAGE,
} from '@dental/shared/domain';
import { and, eq } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { mfaClaimsOf } from '../../auth/accessClaims';
import { acceptTotpCode, readFactor, useRecoveryCode } from '../../auth/secondFactor';
import { users } from '../../db/schema';
import { errorResponses } from '../../plugins/errors';
import type { FactorRoutes } from './secondFactorChecks';

const TAGS = ['auth'];

/** Sign-in's second step: the password step's token with a code of the factor (docs/product.md, Two-step sign-in). */
export function registerCodeStepRoute({ app, db, config, steps, factorSeal }: FactorRoutes): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/auth/mfa/verify',
    {
      config: { rateLimit: { max: config.loginRateLimit, timeWindow: '1 minute' } },
      schema: {
        tags: TAGS,
        summary:
          "Sign-in's second step (public): the password step's `mfa_token` with a `code` from the authenticator app or a `recovery_code`. A code works once; wrong ones count toward the sign-in lock",
        body: mfaVerifySchema,
        response: { 200: authResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const claims = mfaClaimsOf(app, request.body.mfa_token, 'mfa');
      const [account] = claims
        ? await db
            .select({
              clinicId: users.clinicId,
              id: users.id,
              lockedUntil: users.lockedUntil,
              isActive: users.isActive,
            })
            .from(users)
            .where(and(eq(users.clinicId, claims.cid), eq(users.id, Number(claims.sub))))
        : [];
      // A token that signed someone in already opens nothing: its codes are not even tried.
      if (!claims || !account?.isActive || (await steps.secondStepSpent(claims))) {
        return reply.code(401).send({ message: MFA_TOKEN_EXPIRED_MESSAGE });
      }
      const locked = steps.lockRefusal(account);
      if (locked) return reply.code(429).send({ message: locked });
      const factor = await readFactor(db, account.clinicId, account.id);
      // The factor was reset or turned off since the password step: that step must be taken again.
      if (!factor.totpSecret) return reply.code(401).send({ message: MFA_TOKEN_EXPIRED_MESSAGE });

      const { code, recovery_code: recoveryCode } = request.body;
      const used = recoveryCode !== undefined ? 'recovery_code' : 'totp';
      const accepted =
        recoveryCode !== undefined
          ? await useRecoveryCode(db, account.clinicId, account.id, recoveryCode)
          : await acceptTotpCode(db, factorSeal, account.clinicId, account.id, factor.totpSecret, code ?? '');
      if (!accepted) {
        await steps.countFailure(request, account, used);
        return reply
          .code(401)
          .send({ message: used === 'recovery_code' ? WRONG_RECOVERY_CODE_MESSAGE : WRONG_CODE_MESSAGE });
      }
      // The token signs in once: a copy of it (or a second code sent with it) opens nothing.
      if (!(await steps.spendSecondStep(claims))) {
        return reply.code(401).send({ message: MFA_TOKEN_EXPIRED_MESSAGE });
      }
      const refused = await steps.open(account);
      if (refused) return reply.code(429).send({ message: refused });
      return steps.finish(request, reply, account, claims.remember, used);
    },
  );
}
