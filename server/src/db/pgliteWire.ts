import { Duplex } from 'node:stream';
import { serialize } from 'pg-protocol';

/** Where the batches go: PGlite, whose raw answer to each comes back whole (PgliteThread). */
export interface PgliteBackend {
  exec(batch: Uint8Array): Promise<Buffer>;
}

/** Frontend messages after which PostgreSQL answers: Sync, a simple Query, Flush. */
const ANSWERED_AFTER = new Set([0x53, 0x51, 0x48]);
/** Terminate: the connection's end, which PGlite (one backend for the process) does not take. */
const TERMINATE = 0x58;
/** AuthenticationOk, then ReadyForQuery (idle): PGlite's backend is already started. */
const STARTED = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49]);

/**
 * PGlite is one backend whatever the number of connections made to it: a new connection finds what
 * the last one left (its prepared statements, which node-postgres would prepare again under the same
 * names; a transaction it did not end) and starts as a new session would.
 */
const NEW_SESSION = Buffer.concat([serialize.query('rollback'), serialize.query('discard all')]);

/**
 * A node-postgres connection's socket that talks to PGlite (the `stream` of a pg Client):
 * node-postgres writes the wire protocol as to a server, and each batch of messages up to a Sync (a
 * statement's parse, bind, describe, execute) goes to PGlite in one call, whose answer node-postgres
 * reads as it reads a server's. PGlite's own node-postgres adapter passed each message
 * on by itself and parsed every answer into objects in JavaScript first: a fifth of a calendar
 * month's time on the large clinic.
 */
export class PgliteWire extends Duplex {
  private started = false;
  private pending: Buffer = Buffer.alloc(0);
  private turn: Promise<void> = Promise.resolve();

  constructor(private readonly pglite: PgliteBackend) {
    super();
  }

  // The net.Socket methods node-postgres calls on its stream.
  connect(): this {
    process.nextTick(() => this.emit('connect'));
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (!this.started) {
      // The startup message (no type byte) is node-postgres's first write.
      this.started = true;
      this.turn = this.turn.then(() => this.startSession());
      done();
      return;
    }
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let end = 0;
    let answeredUpTo = 0;
    // Whole messages only: a type byte, then a length that counts itself.
    while (end + 5 <= this.pending.length) {
      const length = this.pending.readInt32BE(end + 1);
      if (end + 1 + length > this.pending.length) break;
      const type = this.pending[end] as number;
      end += 1 + length;
      if (type === TERMINATE) answeredUpTo = end;
      else if (ANSWERED_AFTER.has(type)) {
        const batch = this.pending.subarray(answeredUpTo, end);
        answeredUpTo = end;
        this.turn = this.turn.then(() => this.answer(batch));
      }
    }
    this.pending = this.pending.subarray(answeredUpTo);
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    this.turn.then(() => {
      this.push(null);
      done();
    }, done);
  }

  private async startSession(): Promise<void> {
    try {
      await this.pglite.exec(NEW_SESSION);
    } catch (error) {
      this.destroy(error as Error);
      return;
    }
    this.push(STARTED);
  }

  private async answer(batch: Buffer): Promise<void> {
    if (this.destroyed) return;
    let answered: Buffer;
    try {
      answered = await this.pglite.exec(batch);
    } catch (error) {
      this.destroy(error as Error);
      return;
    }
    if (answered.length) this.push(answered);
  }
}
