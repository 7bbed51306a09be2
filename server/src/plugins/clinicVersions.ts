import type { FastifyInstance } from 'fastify';
import { readClinicVersion } from '../db/auditLog';
import type { Database } from '../db/client';
import { localDate } from '../db/clinicTime';

/** How long a probe of the clinic's newest audit record is trusted. */
const REVALIDATE_MS = 1_000;
const MAX_CLINICS = 10_000;

interface Probe {
  checkedAt: number;
  version: Promise<string>;
}

/**
 * A token that changes whenever a clinic's data may have changed, so what was read under one token
 * can be served again while the token holds:
 *  - a write through this process (any non-GET call by the clinic's staff) changes it at once;
 *  - every write to clinic data records an audit row in its own transaction, so a probe of the
 *    clinic's newest audit id (at most every REVALIDATE_MS) catches writes made through other API
 *    processes, as well as the date turning in the clinic's time zone.
 * Reads may thus lag another process's write by up to a second; never this process's own.
 */
export class ClinicVersions {
  private readonly probes = new Map<number, Probe>();
  private readonly localWrites = new Map<number, number>();

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  async current(clinicId: number): Promise<string> {
    const now = this.now();
    let probe = this.probes.get(clinicId);
    if (!probe || now - probe.checkedAt >= REVALIDATE_MS) {
      const version = readClinicVersion(this.db, clinicId).then(
        ({ timeZone, latestAuditId }) => `${localDate(timeZone)}|${latestAuditId}`,
      );
      probe = { checkedAt: now, version };
      if (this.probes.size >= MAX_CLINICS && !this.probes.has(clinicId)) this.probes.clear();
      this.probes.set(clinicId, probe);
      // A failed probe is not kept: the next call tries again.
      version.catch(() => {
        if (this.probes.get(clinicId) === probe) this.probes.delete(clinicId);
      });
    }
    return `${await probe.version}|${this.localWrites.get(clinicId) ?? 0}`;
  }

  /** Something of the clinic changed through this process. */
  changed(clinicId: number): void {
    this.localWrites.set(clinicId, (this.localWrites.get(clinicId) ?? 0) + 1);
  }
}

/**
 * Every write by a signed-in staff member changes their clinic's version as its answer is sent: the
 * write has committed by then, and a read the client makes after the answer sees the change.
 */
export function trackClinicWrites(app: FastifyInstance, versions: ClinicVersions): void {
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.staff) {
      versions.changed(request.staff.clinicId);
    }
  });
}
