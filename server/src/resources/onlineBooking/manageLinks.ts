import { createHmac } from 'node:crypto';
import { managePagePath } from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import { hashSecretToken } from '../../auth/secretTokens';
import type { Database, Reader } from '../../db/client';
import { appointments } from '../../db/schema';
import { sharedSecret } from '../../db/secrets';

/** The server's key for manage links: every API process on the database derives the same link. */
const MANAGE_LINK_SECRET = 'manage-links';

/**
 * A visit's manage token: 192 bits of an HMAC of the visit under the server's key. Only its hash is
 * stored, as before; deriving it lets a reminder weeks later carry the same link as the confirmation
 * (docs/product.md, Online booking), without the token itself being kept anywhere.
 */
export function manageTokenOf(secret: string, clinicId: number, appointmentId: number): string {
  return createHmac('sha256', secret)
    .update(`manage:${clinicId}:${appointmentId}`)
    .digest('base64url')
    .slice(0, 32);
}

/**
 * The key, read once per database by this process: every booking and every reminder sent needs it,
 * and it never changes (a failed read is asked again next time).
 */
const secrets = new WeakMap<Database, Promise<string>>();
export function manageSecret(db: Database): Promise<string> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = sharedSecret(db, MANAGE_LINK_SECRET);
    secrets.set(db, secret);
    secret.catch(() => secrets.delete(db));
  }
  return secret;
}

/** The id the next visit will have, taken ahead so its manage token is known when it is written. */
export async function nextAppointmentId(db: Reader): Promise<number> {
  const result = await db.execute<{ id: string | number }>(
    sql`select nextval(pg_get_serial_sequence('appointments', 'id')) as id`,
  );
  return Number(result.rows[0]?.id);
}

/**
 * The manage link of a visit booked online, for a reminder: null for a visit booked at the desk, or
 * one whose token was not derived (booked before links were), so no reminder carries a dead link.
 */
export async function manageLinkOf(
  db: Database,
  baseUrl: string,
  clinicId: number,
  appointmentId: number,
): Promise<string | null> {
  const [visit] = await db
    .select({ hash: appointments.manageTokenHash })
    .from(appointments)
    .where(and(eq(appointments.clinicId, clinicId), eq(appointments.id, appointmentId)));
  if (!visit?.hash) return null;
  const token = manageTokenOf(await manageSecret(db), clinicId, appointmentId);
  if (hashSecretToken(token) !== visit.hash) return null;
  return `${baseUrl}${managePagePath(token)}`;
}
