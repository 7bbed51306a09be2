import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface PgliteThreadOptions {
  /** The database's folder; null keeps it in memory (tests). */
  dataDir: string | null;
  /** PGlite's buffer cache in MB; 0 or unset for its own default. */
  sharedBuffersMb?: number;
}

/** What the server sends PGlite's thread. */
export type ToPglite = { kind: 'batch'; id: number; batch: Uint8Array } | { kind: 'close' };
/** What PGlite's thread answers. */
export type ToServer =
  | { kind: 'ready' }
  | { kind: 'unopened'; message: string }
  | { kind: 'answer'; id: number; bytes: Uint8Array }
  | { kind: 'failed'; id: number; message: string }
  | { kind: 'closed' };

/**
 * The worker is TypeScript like the rest of the server, loaded through tsx's require hook whoever
 * started the server (tsx, jest): a worker does not take its parent's module hooks.
 */
const WORKER_SOURCE = `require(${JSON.stringify(require.resolve('tsx/cjs'))});
require(${JSON.stringify(path.join(__dirname, 'pgliteThread.worker.ts'))});`;

/**
 * PGlite on a thread of its own. PGlite runs the database's work on the thread that calls it, and on
 * the server's thread each statement held up every other request (reading it, checking its token,
 * writing its answer) until it was done: with PGlite beside it, the server works on two cores. The
 * server sends batches of wire-protocol messages (PgliteWire) and gets PGlite's raw answers back.
 */
export class PgliteThread {
  private readonly waiting = new Map<
    number,
    { resolve: (bytes: Buffer) => void; reject: (error: Error) => void }
  >();
  private nextId = 1;
  private failure: Error | null = null;
  private closing: Promise<void> | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: ToServer) => {
      if (message.kind !== 'answer' && message.kind !== 'failed') return;
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.kind === 'answer') {
        waiter?.resolve(
          Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength),
        );
      } else waiter?.reject(new Error(message.message));
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The database's thread ended (exit code ${code})`)));
  }

  /** Starts the thread and opens the database in it; fails as opening PGlite fails. */
  static start(options: PgliteThreadOptions): Promise<PgliteThread> {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: options });
    return new Promise((resolve, reject) => {
      const onMessage = (message: ToServer) => {
        if (message.kind !== 'ready' && message.kind !== 'unopened') return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        if (message.kind === 'ready') resolve(new PgliteThread(worker));
        else {
          void worker.terminate();
          reject(new Error(`PGlite could not open the database: ${message.message}`));
        }
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  }

  /** PGlite's raw answer to a batch of wire-protocol messages. */
  exec(batch: Uint8Array): Promise<Buffer> {
    if (this.closing) return Promise.reject(new Error('The database is closed'));
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    // A copy of its own, handed over: the batch may be a view of a larger buffer node-postgres reuses.
    const own = new Uint8Array(batch);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const message: ToPglite = { kind: 'batch', id, batch: own };
      this.worker.postMessage(message, [own.buffer]);
    });
  }

  /** Closes PGlite (after the batches already sent) and ends the thread. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (this.failure) {
        resolve();
        return;
      }
      this.worker.once('exit', () => resolve());
      this.worker.on('message', (message: ToServer) => {
        if (message.kind === 'closed') void this.worker.terminate();
      });
      const message: ToPglite = { kind: 'close' };
      this.worker.postMessage(message);
    });
    return this.closing;
  }
}
