import type { DashboardStat } from '@dental/shared/domain';
import { readClinicVersion } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { clinicToday, localDate } from '../../db/clinicTime';
import { readStatFigures, statCards } from './dashboardData';

/**
 * Counting a large clinic's patients and pending bookings costs tens of milliseconds; the dashboard
 * is opened by every screen of the clinic, so the stats are kept per clinic and recounted only
 * when something may have changed them:
 *  - a write through this process (any non-GET /api call of the clinic) drops the clinic's entry;
 *  - at most every REVALIDATE_MS a cheap probe (the clinic's zone and newest audit record) catches
 *    writes made through other API processes, a zone change and the date turning;
 *  - an entry never outlives MAX_AGE_MS, which bounds what a transaction committing out of audit-id
 *    order could leave behind.
 * Concurrent callers share one recount.
 */
const REVALIDATE_MS = 1_000;
const MAX_AGE_MS = 15_000;
const MAX_CLINICS = 10_000;

interface Entry {
  /** The clinic's today and newest audit id the figures were counted at. */
  version: string;
  timeZone: string;
  today: string;
  computedAt: number;
  checkedAt: number;
  stats: Promise<DashboardStat[]>;
}

export class StatsCache {
  private readonly entries = new Map<number, Entry>();

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
    /** Off: every call counts afresh (READ_CACHE=off, so benchmarks measure the database). */
    private readonly enabled = true,
  ) {}

  /** Something of the clinic changed here: its next stats are counted afresh. */
  invalidate(clinicId: number): void {
    this.entries.delete(clinicId);
  }

  async statsOf(clinicId: number): Promise<DashboardStat[]> {
    if (!this.enabled) {
      // The zone as every route reads it (read once a second), so the stats are one statement.
      return statCards(await readStatFigures(this.db, clinicId, await clinicToday(this.db, clinicId)));
    }
    const now = this.now();
    const cached = this.entries.get(clinicId);
    if (
      cached &&
      now - cached.checkedAt < REVALIDATE_MS &&
      now - cached.computedAt < MAX_AGE_MS &&
      localDate(cached.timeZone) === cached.today
    ) {
      return cached.stats;
    }
    const probe = await readClinicVersion(this.db, clinicId);
    const today = localDate(probe.timeZone);
    const version = `${today}|${probe.latestAuditId}`;
    const current = this.entries.get(clinicId);
    if (current && current.version === version && now - current.computedAt < MAX_AGE_MS) {
      current.checkedAt = now;
      return current.stats;
    }
    return this.recount(clinicId, { version, timeZone: probe.timeZone, today, now });
  }

  private recount(
    clinicId: number,
    at: { version: string; timeZone: string; today: string; now: number },
  ): Promise<DashboardStat[]> {
    const stats = readStatFigures(this.db, clinicId, at.today).then(statCards);
    if (this.entries.size >= MAX_CLINICS && !this.entries.has(clinicId)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(clinicId, {
      version: at.version,
      timeZone: at.timeZone,
      today: at.today,
      computedAt: at.now,
      checkedAt: at.now,
      stats,
    });
    // A failed count is not kept: the next call tries again.
    stats.catch(() => {
      if (this.entries.get(clinicId)?.stats === stats) this.entries.delete(clinicId);
    });
    return stats;
  }
}
