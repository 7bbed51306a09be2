import {
  authResponseSchema,
  factorChangeSchema,
  factorStatusSchema,
  idParamsSchema,
  MFA_REQUIRED_CANNOT_DISABLE,
  MFA_TOKEN_EXPIRED_MESSAGE,
  mfaPolicyCovers,
  mfaVerifySchema,
  recoveryCodesSchema,
  TOTP_CODE_MESSAGE,
  totpEnableSchema,
  totpSetupRequestSchema,
  totpSetupSchema,
  WRONG_CODE_MESSAGE,
  WRONG_CURRENT_PASSWORD,
  WRONG_RECOVERY_CODE_MESSAGE,
} from '@dental/shared/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, type MfaTokenClaims, mfaClaimsOf } from '../../auth/accessClaims';
import type { FactorSeal } from '../../auth/factorSeal';
import type { Guard } from '../../auth/guard';
import { verifyPassword } from '../../auth/passwords';
import { revokeUserSessions, type SignInFactor } from '../../auth/refreshTokens';
import {
  acceptTotpCode,
  confirmTotpSetup,
  type FactorState,
  newTotpSecret,
  otpauthUrl,
  readFactor,
  removeFactor,
  renewRecoveryCodes,
  startTotpSetup,
  useRecoveryCode,
} from '../../auth/secondFactor';
import { findStaff, type Staff } from '../../auth/staff';
import type { AppConfig } from '../../config';
import { recordAudit } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { errorResponses, HttpError } from '../../plugins/errors';
import { readSettings } from '../settings/settingsData';
import type { Recheck, SignInSteps } from './signIn';

const TAGS = ['auth'];
const SECURITY = [{ bearerAuth: [] }];
const messageSchema = z.object({ message: z.string() });

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request carries the sign-in's enrolment token instead of an access token. */
    enrolling: { clinicId: number; userId: number; remember: boolean; claims: MfaTokenClaims } | null;
  }
}

const fieldError = (field: string, message: string) => new HttpError(400, message, [{ field, message }]);

/**
 * The second factor: sign-in's code step, setting up and turning off an authenticator app,
 * recovery codes, and an administrator's reset of a user's factor.
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

  /** Signed in, or at the sign-in's enrolment step (the clinic requires a factor the user has not got). */
  const signedInOrEnrolling = async function (
    this: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const token = bearerToken(request);
    const enrolment = token ? mfaClaimsOf(app, token, 'enroll') : null;
    if (enrolment) {
      request.enrolling = {
        clinicId: enrolment.cid,
        userId: Number(enrolment.sub),
        remember: enrolment.remember,
        claims: enrolment,
      };
      return;
    }
    await guard.authenticated.call(this, request, reply);
  };

  /** The account the request acts for: the signed-in user, or the one enrolling. */
  const accountOf = async (request: FastifyRequest): Promise<Staff> => {
    if (request.staff) return request.staff;
    const enrolling = request.enrolling;
    const staff = enrolling ? await findStaff(db, enrolling.clinicId, enrolling.userId) : null;
    if (!staff?.isActive) throw new HttpError(401, MFA_TOKEN_EXPIRED_MESSAGE);
    return staff;
  };

  const policyCovers = async (staff: Staff) =>
    mfaPolicyCovers((await readSettings(db, staff.clinicId)).mfaRequired, staff.role);

  /**
   * Before a factor changes, the signed-in user proves it is them: the current password, and a code
   * (or a recovery code) of the factor in use when one is on.
   */
  const proveIdentity = async (
    request: FastifyRequest,
    staff: Staff,
    recheck: Recheck,
    proof: { password?: string; code?: string; recovery_code?: string },
    /** The factor as the route has read it already, so it is read once. */
    known?: FactorState,
  ): Promise<void> => {
    if (!proof.password) throw fieldError('password', 'Enter your current password');
    await steps.refuseWhileLocked(staff);
    // A wrong password or code counts toward the sign-in's lock and is on the security log.
    const refuse = async (factor: SignInFactor, field: string, message: string) => {
      await steps.countFailure(request, staff, factor, recheck);
      return fieldError(field, message);
    };
    const [account] = await db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(and(eq(users.clinicId, staff.clinicId), eq(users.id, staff.id)));
    if (!account || !(await verifyPassword(proof.password, account.passwordHash))) {
      throw await refuse('password', 'password', WRONG_CURRENT_PASSWORD);
    }
    const factor = known ?? (await readFactor(db, staff.clinicId, staff.id));
    if (!factor.totpSecret) return;
    if (proof.recovery_code) {
      if (!(await useRecoveryCode(db, staff.clinicId, staff.id, proof.recovery_code))) {
        throw await refuse('recovery_code', 'recovery_code', WRONG_RECOVERY_CODE_MESSAGE);
      }
      return;
    }
    if (!proof.code) throw fieldError('code', TOTP_CODE_MESSAGE);
    if (!(await acceptTotpCode(db, factorSeal, staff.clinicId, staff.id, factor.totpSecret, proof.code))) {
      throw await refuse('totp', 'code', WRONG_CODE_MESSAGE);
    }
  };

  const recordFactorChange = (
    writer: Pick<Database, 'insert'>,
    request: FastifyRequest,
    owner: Staff,
    action: 'mfa_enabled' | 'mfa_disabled' | 'mfa_reset' | 'recovery_codes_renewed',
    actorId: number = owner.id,
  ) =>
    recordAudit(writer, {
      clinicId: owner.clinicId,
      userId: actorId,
      action,
      entity: 'user',
      entityId: owner.id,
      details: { ip: request.ip, factor: 'totp' },
    });

  /**
   * "End my other sessions" after a factor change: all of the user's sessions but this one. The
   * record of it is announced, so every API process refuses them at once.
   */
  const endOthers = async (
    writer: Pick<Database, 'update' | 'insert'>,
    request: FastifyRequest,
    staff: Staff,
  ) => {
    const ended = await revokeUserSessions(
      writer,
      staff.clinicId,
      staff.id,
      'factor_changed',
      request.accessClaims ? (request.accessClaims.sid ?? null) : null,
    );
    if (ended.length === 0) return;
    await recordAudit(writer, {
      clinicId: staff.clinicId,
      userId: staff.id,
      action: 'session_ended',
      entity: 'session',
      entityId: staff.id,
      details: { ip: request.ip, reason: 'factor_changed', sessions: ended.length },
    });
  };

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
        if (factor.totpSecret) throw new HttpError(409, 'A second factor is on already: sign in with it.');
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
        throw new HttpError(401, MFA_TOKEN_EXPIRED_MESSAGE);
      }
      return {
        recovery_codes: codes,
        ...(await steps.finish(request, reply, account, request.enrolling.remember, 'totp')),
      };
    },
  );

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
      if (await policyCovers(staff)) throw new HttpError(409, MFA_REQUIRED_CANNOT_DISABLE);
      await proveIdentity(request, staff, 'factor_off', request.body);
      await db.transaction(async (tx) => {
        await removeFactor(tx, staff.clinicId, staff.id);
        await recordFactorChange(tx, request, staff, 'mfa_disabled');
        if (request.body.end_other_sessions) await endOthers(tx, request, staff);
      });
      return { message: 'Two-step sign-in is off.' };
    },
  );

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
      if (!factor.totpSecret) throw new HttpError(409, 'Turn on two-step sign-in first.');
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
      if (!user) throw new HttpError(404, 'User not found');
      await db.transaction(async (tx) => {
        await removeFactor(tx, user.clinicId, user.id);
        await revokeUserSessions(tx, user.clinicId, user.id, 'factor_changed');
        await recordFactorChange(tx, request, user, 'mfa_reset', admin.id);
      });
      return { message: `${user.name}'s two-step sign-in was reset; they were signed out.` };
    },
  );
}
