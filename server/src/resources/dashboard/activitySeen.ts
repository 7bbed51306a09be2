import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

/** The newest activity record (audit id) the user has seen in the bell; 0 for none. */
export async function readActivitySeen(db: Database, clinicId: number, userId: number): Promise<number> {
  const { rows } = await db.execute(sql`
    select activity_seen_id as "seenId" from users where clinic_id = ${clinicId} and id = ${userId}
  `);
  return Number((rows[0] as { seenId?: string | number } | undefined)?.seenId ?? 0);
}

/**
 * Moves the user's marker forward to `seenId` (never back: a browser that opened the bell earlier
 * may answer late) and, when it moved, tells the user's other browsers in the same transaction.
 */
export async function markActivitySeen(
  db: Database,
  clinicId: number,
  userId: number,
  seenId: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute(sql`
      update users set activity_seen_id = ${seenId}
      where clinic_id = ${clinicId} and id = ${userId} and activity_seen_id < ${seenId}
      returning activity_seen_id as "seenId"
    `);
    if (rows.length > 0) {
      await tx.execute(
        sql`select announce_change(${clinicId}, ${userId}, 'activity_seen', ${String(userId)}, 'update')`,
      );
      return seenId;
    }
    return readActivitySeen(tx as unknown as Database, clinicId, userId);
  });
}
