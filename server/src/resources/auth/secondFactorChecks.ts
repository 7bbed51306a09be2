import {
  MFA_TOKEN_EXPIRED_MESSAGE,
  mfaPolicyCovers,
  TOTP_CODE_MESSAGE,
  WRONG_CODE_MESSAGE,
  WRONG_CURRENT_PASSWORD,
  WRONG_RECOVERY_CODE_MESSAGE,
} from '@dental/shared/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, type MfaTokenClaims, mfaClaimsOf } from '../../auth/accessClaims';
import type { FactorSeal } from '../../auth/factorSeal';
import type { Guard } from '../../auth/guard';
import { verifyPassword } from '../../auth/passwords';
import { revokeUserSessions, type SignInFactor } from '../../auth/refreshTokens';
import { acceptTotpCode, type FactorState, readFactor, useRecoveryCode } from '../../auth/secondFactor';
import { findStaff, type Staff } from '../../auth/staff';
import type { AppConfig } from '../../config';
import { recordAudit } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { InvalidValue, NotRecognised } from '../../domain/errors';
import { readSettings } from '../settings/settingsData';
import type { Recheck, SignInSteps } from './signIn';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request carries the sign-in's enrolment token instead of an access token. */
    enrolling: { clinicId: number; userId: number; remember: boolean; claims: MfaTokenClaims } | null;
  }
}

/** What every route of the second factor is given (registerSecondFactorRoutes). */
export interface FactorRoutes {
  app: FastifyInstance;
  db: Database;
  guard: Guard;
  config: AppConfig;
  steps: SignInSteps;
  factorSeal: FactorSeal;
}

/** A refusal beside one field, in that field's words alone (the form shows it there). */
export const fieldError = (field: string, message: string) => new InvalidValue(message, [{ field, message }]);

/**
 * The checks and records the second factor's routes share (docs/product.md, Two-step sign-in): who
 * the request acts for, whether the clinic requires a factor of them, the proof asked before a factor
 * changes, and the audit of a change.
 */
export function factorChecksOf({ app, db, guard, steps, factorSeal }: FactorRoutes) {
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
    if (!staff?.isActive) throw new NotRecognised(MFA_TOKEN_EXPIRED_MESSAGE);
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

  return { signedInOrEnrolling, accountOf, policyCovers, proveIdentity, recordFactorChange, endOthers };
}

/** The shared checks, as the route files take them. */
export type FactorChecks = ReturnType<typeof factorChecksOf>;
