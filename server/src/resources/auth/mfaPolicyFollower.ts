import { type MfaPolicy, mfaPolicyCovers, ROLES } from '@dental/shared/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { endPasswordOnlySessions } from '../../auth/refreshTokens';
import { recordAudit } from '../../db/auditLog';
import type { Transaction } from '../../db/client';
import { users } from '../../db/schema';
import type { SettingsFollower } from '../settings/settingsData';

/** The roles `after` asks a second factor of that `before` did not. */
const newlyCovered = (before: MfaPolicy, after: MfaPolicy) =>
  ROLES.filter((role) => mfaPolicyCovers(after, role) && !mfaPolicyCovers(before, role));

/**
 * A settings save that widens the two-step policy ends, in its own transaction, every password-only
 * session of the staff it now covers, each audited as `session_ended` (`mfa_required`): they set up
 * their factor at their next sign-in. The saving session (`savedFrom`) ends at its next refresh instead
 * (docs/security.md, Sessions). The database announces the endings to every API process
 * (migration 0027); the route also tells this process's guard at once.
 */
export const endSessionsTheMfaPolicyNowCovers: SettingsFollower = async (
  tx: Transaction,
  clinicId,
  before,
  after,
  keep,
) => {
  const roles = newlyCovered(before.mfaRequired, after.mfaRequired);
  if (roles.length === 0) return;
  const covered = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.clinicId, clinicId), inArray(users.role, roles)));
  const ended = await endPasswordOnlySessions(
    tx,
    clinicId,
    covered.map((user) => user.id),
    keep,
  );
  for (const [userId, sessions] of ended) {
    await recordAudit(tx, {
      clinicId,
      userId,
      action: 'session_ended',
      entity: 'session',
      entityId: userId,
      details: { reason: 'mfa_required', sessions },
    });
  }
};
