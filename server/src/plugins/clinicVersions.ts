import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { clinicTimeZone, localDate } from '../db/clinicTime';
import type { ClinicEventHub } from './clinicEvents';

const MAX_CLINICS = 10_000;

/**
 * A token that changes whenever a clinic's data may have changed, so what was read under one token
 * can be served again while the token holds:
 *  - a write through this process (any non-GET call by the clinic's staff) changes it as its answer
 *    is sent;
 *  - every write to clinic data is announced on the clinic events channel when it commits
 *    (ClinicEventHub), whichever API process made it: the announcement changes it within moments;
 *  - while the channel was not heard (its connection broke), every clinic's token changes;
 *  - the date turning in the clinic's time zone changes it.
 */
export class ClinicVersions {
  private readonly changes = new Map<number, number>();
  private epoch = 0;

  constructor(
    private readonly db: Database,
    hub: Pick<ClinicEventHub, 'onClinicChange' | 'onGap'>,
  ) {
    hub.onClinicChange((clinicId) => this.changed(clinicId));
    hub.onGap(() => {
      this.epoch += 1;
    });
  }

  async current(clinicId: number): Promise<string> {
    const today = localDate(await clinicTimeZone(this.db, clinicId));
    return `${today}|${this.epoch}|${this.changes.get(clinicId) ?? 0}`;
  }

  /** Something of the clinic changed. */
  changed(clinicId: number): void {
    if (this.changes.size >= MAX_CLINICS && !this.changes.has(clinicId)) {
      // Counts start again: a new epoch keeps every token from ever coming back.
      this.changes.clear();
      this.epoch += 1;
    }
    this.changes.set(clinicId, (this.changes.get(clinicId) ?? 0) + 1);
  }
}

/**
 * Every write by a signed-in staff member changes their clinic's version as its answer is sent: the
 * write has committed by then, and a read the client makes after the answer sees the change even
 * before its announcement has come back from the database.
 */
export function trackClinicWrites(app: FastifyInstance, versions: ClinicVersions): void {
  app.addHook('onSend', async (request) => {
    if (request.routeOptions.config?.leavesReadsAsTheyWere) return;
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.staff) {
      versions.changed(request.staff.clinicId);
    }
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A staff POST that changes nothing any screen reads (a browser's error report): no version moves. */
    leavesReadsAsTheyWere?: boolean;
  }
}
