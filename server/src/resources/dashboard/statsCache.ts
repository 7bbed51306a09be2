import type { DashboardStat } from '@dental/shared/domain';
import type { Database } from '../../db/client';
import { clinicToday } from '../../db/clinicTime';
import { readStatFigures, statCards } from './dashboardData';

/**
 * Counting a large clinic's patients and pending bookings costs tens of milliseconds; the dashboard
 * is opened by every screen of the clinic, so the stats are kept per clinic and recounted only
 * when something may have changed them: when the clinic's version (ClinicVersions: a write through
 * any API process, announced as it commits, or the date turning in the clinic's zone) has moved.
 * An entry never outlives MAX_AGE_MS, which bounds what a change made outside the API (and so not
 * announced) could leave behind. Concurrent callers share one recount.
 */
const MAX_AGE_MS = 15_000;
const MAX_CLINICS = 10_000;

interface Entry {
  /** The clinic's version the figures were counted at. */
  version: string;
  computedAt: number;
  stats: Promise<DashboardStat[]>;
}

export class StatsCache {
  private readonly entries = new Map<number, Entry>();

  constructor(
    private readonly db: Database,
    /** The clinic's version: what the figures depend on (ClinicVersions.current). */
    private readonly versionOf: (clinicId: number) => Promise<string>,
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
    const version = await this.versionOf(clinicId);
    const cached = this.entries.get(clinicId);
    if (cached && cached.version === version && now - cached.computedAt < MAX_AGE_MS) return cached.stats;
    return this.recount(clinicId, version, now);
  }

  private async recount(clinicId: number, version: string, now: number): Promise<DashboardStat[]> {
    const stats = clinicToday(this.db, clinicId)
      .then((today) => readStatFigures(this.db, clinicId, today))
      .then(statCards);
    if (this.entries.size >= MAX_CLINICS && !this.entries.has(clinicId)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(clinicId, { version, computedAt: now, stats });
    // A failed count is not kept: the next call tries again.
    stats.catch(() => {
      if (this.entries.get(clinicId)?.stats === stats) this.entries.delete(clinicId);
    });
    return stats;
  }
}
