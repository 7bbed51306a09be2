/**
 * The thread PGlite runs on (pgliteThread.ts starts it): it opens the database and answers each batch
 * of wire-protocol messages it is sent with PGlite's raw answer, one batch at a time, in order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgliteThreadOptions, ToPglite, ToServer } from './pgliteThread';

const port = parentPort;
if (!port) throw new Error('pgliteThread.worker runs as a worker thread');
const options = workerData as PgliteThreadOptions;
const tell = (message: ToServer, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

async function open(): Promise<PGlite> {
  // pg_trgm serves the substring searches of patient lists.
  const settings = {
    extensions: { btree_gist, pg_trgm },
    ...(options.sharedBuffersMb
      ? {
          startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffersMb}MB`],
        }
      : {}),
  };
  const pglite = options.dataDir ? new PGlite(options.dataDir, settings) : new PGlite(settings);
  await pglite.waitReady;
  return pglite;
}

/** PGlite's answer to a batch, in one buffer of its own (so it can be handed over, not copied). */
async function answer(pglite: PGlite, batch: Uint8Array): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  await pglite.execProtocolRawStream(batch, {
    // PGlite hands on a view of its own memory, reused by the next call.
    onRawData: (data) => {
      parts.push(data.slice());
      length += data.length;
    },
  });
  if (parts.length === 1 && parts[0]) return parts[0];
  const whole = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

open().then(
  (pglite) => {
    let turn = Promise.resolve();
    port.on('message', (message: ToPglite) => {
      turn = turn.then(async () => {
        if (message.kind === 'close') {
          await pglite.close();
          tell({ kind: 'closed' });
          port.close();
          return;
        }
        try {
          const bytes = await answer(pglite, message.batch);
          tell({ kind: 'answer', id: message.id, bytes }, [bytes.buffer as ArrayBuffer]);
        } catch (error) {
          tell({ kind: 'failed', id: message.id, message: String((error as Error)?.message ?? error) });
        }
      });
    });
    tell({ kind: 'ready' });
  },
  (error: unknown) => tell({ kind: 'unopened', message: String((error as Error)?.message ?? error) }),
);
