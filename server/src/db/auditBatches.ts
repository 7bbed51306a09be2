import { type AuditEntry, recordAudits } from './auditLog';
import type { Database } from './client';

/** The most records one insert carries: a bound on one statement's parameters (9 a record). */
const MOST_A_BATCH = 500;

interface Waiting {
  entry: AuditEntry;
  written: () => void;
  failed: (error: unknown) => void;
}

/**
 * Inserts records in one transaction whose commit waits for the disk, like every other write: a
 * reader's answer leaves only once its record would survive a crash of the database server too.
 * (Not waiting for the disk measured no faster: bench/README.md "Audited list reads".)
 */
async function insertCommitted(db: Database, entries: AuditEntry[]): Promise<void> {
  await db.transaction(async (tx) => {
    await recordAudits(tx, entries);
  });
}

/**
 * Writes the audit records that many requests make at once together, as the trail of reads does
 * (docs/security.md "Reads"). Each caller still waits until its own record is committed, so nothing
 * is answered off the trail; but the records that arrive while one insert is under way go into the
 * next one, as one statement and one commit, instead of a transaction each. It is given a
 * connection of its own (DatabaseHandle.trailDb), so a record does not queue for a pooled one. A lone record is
 * written at once. When a batch is refused, its records are written one by one, so only a record
 * that cannot be written fails its caller.
 */
export function auditBatchWriter(db: Database): (entry: AuditEntry) => Promise<void> {
  let waiting: Waiting[] = [];
  let writing = false;

  async function writeWaiting(): Promise<void> {
    writing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, MOST_A_BATCH);
        waiting = waiting.slice(batch.length);
        await writeBatch(batch);
      }
    } finally {
      writing = false;
    }
  }

  async function writeBatch(batch: Waiting[]): Promise<void> {
    try {
      await insertCommitted(
        db,
        batch.map((waiter) => waiter.entry),
      );
      for (const waiter of batch) waiter.written();
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.failed(error);
        return;
      }
    }
    for (const waiter of batch) {
      await insertCommitted(db, [waiter.entry]).then(waiter.written, waiter.failed);
    }
  }

  return (entry) =>
    new Promise<void>((written, failed) => {
      waiting.push({ entry, written, failed });
      if (!writing) void writeWaiting();
    });
}
