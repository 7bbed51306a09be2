import {
  type ClinicEvent,
  LIVE_ACTIONS,
  LIVE_RESOURCES,
  type LiveAction,
  type LiveResource,
} from '@dental/shared/domain';
import type { DatabaseHandle } from '../db/client';

/** The channel every change of clinic data is announced on (migration 0016: announce_change). */
export const CLINIC_EVENTS_CHANNEL = 'clinic_events';
/** How many of the latest changes (of all clinics) a process keeps for streams that resume. */
const RECENT_MAX = 5_000;

/** One announcement as the database sends it. */
interface Announcement {
  e: number;
  c: number;
  u: number | null;
  r: string;
  i: string | null;
  a: string;
  d: string | null;
}

/** What a stream of a clinic hears. */
export interface ClinicStream {
  /** A change of the clinic's data, committed. */
  change: (event: ClinicEvent) => void;
  /** Changes may have been missed (the database connection broke, an import): read everything again. */
  resync: () => void;
}

const isResource = (value: string): value is LiveResource =>
  (LIVE_RESOURCES as readonly string[]).includes(value);
const isAction = (value: string): value is LiveAction => (LIVE_ACTIONS as readonly string[]).includes(value);

/** The audit record's action, as a change a screen follows. */
function actionOf(recorded: string): LiveAction {
  if (recorded === 'create') return 'created';
  if (recorded === 'delete') return 'deleted';
  return isAction(recorded) ? recorded : 'updated';
}

/** An announcement as the `data:` of a change event, or null when no screen shows what changed. */
export function clinicEventOf(announcement: Announcement): ClinicEvent | null {
  if (!isResource(announcement.r)) return null;
  // The clinic's settings are its one row: no id to name (their audit record names the clinic).
  const id =
    announcement.r !== 'settings' && announcement.i !== null && /^\d+$/.test(announcement.i)
      ? Number(announcement.i)
      : null;
  return {
    event: announcement.e,
    resource: announcement.r,
    id,
    action: actionOf(announcement.a),
    by: announcement.u,
    desk: announcement.d,
  };
}

function parseAnnouncement(payload: string): Announcement | null {
  try {
    const value = JSON.parse(payload) as Partial<Announcement>;
    if (typeof value.e !== 'number' || typeof value.c !== 'number' || typeof value.r !== 'string')
      return null;
    return {
      e: value.e,
      c: value.c,
      u: typeof value.u === 'number' ? value.u : null,
      r: value.r,
      i: value.i === null || value.i === undefined ? null : String(value.i),
      a: typeof value.a === 'string' ? value.a : 'update',
      d: typeof value.d === 'string' ? value.d : null,
    };
  } catch {
    return null;
  }
}

/**
 * The clinics' changes as this API process hears them: every write's transaction announces its
 * change through the database (LISTEN/NOTIFY, on PostgreSQL and on PGlite alike), so a change made
 * through any process reaches the streams held by every process, and a refused or rolled-back write
 * announces nothing. Every process hears the announcements in the same (commit) order, so a stream
 * resumes on any of them after the last event it saw, while that is among the latest kept here.
 */
export class ClinicEventHub {
  private readonly streams = new Map<number, Set<ClinicStream>>();
  private readonly clinicListeners = new Set<(clinicId: number) => void>();
  private readonly gapListeners = new Set<() => void>();
  /** The latest changes, oldest first, with their clinic. */
  private recent: Array<{ clinicId: number; event: ClinicEvent }> = [];
  private stopListening: (() => Promise<void>) | null = null;

  /** Starts hearing the database's announcements. */
  async start(database: Pick<DatabaseHandle, 'listen'>): Promise<void> {
    this.stopListening = await database.listen(CLINIC_EVENTS_CHANNEL, {
      onNotification: (payload) => this.receive(payload),
      onGap: () => this.gap(),
    });
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = null;
  }

  /** Follows a clinic's changes; returns the unsubscribe. */
  subscribe(clinicId: number, stream: ClinicStream): () => void {
    let streams = this.streams.get(clinicId);
    if (!streams) {
      streams = new Set();
      this.streams.set(clinicId, streams);
    }
    streams.add(stream);
    return () => {
      streams.delete(stream);
      if (streams.size === 0) this.streams.delete(clinicId);
    };
  }

  /** Told of every change of any clinic (the read cache's versions). */
  onClinicChange(listener: (clinicId: number) => void): void {
    this.clinicListeners.add(listener);
  }

  /** Told whenever changes may have been missed. */
  onGap(listener: () => void): void {
    this.gapListeners.add(listener);
  }

  /**
   * The clinic's changes after the event a stream saw last, or null when they cannot be told (that
   * event is not among the latest kept: the process started since, or much has happened).
   */
  changesAfter(clinicId: number, lastEvent: number): ClinicEvent[] | null {
    const index = this.recent.findIndex(({ event }) => event.event === lastEvent);
    if (index < 0) return null;
    return this.recent
      .slice(index + 1)
      .filter((entry) => entry.clinicId === clinicId)
      .map(({ event }) => event);
  }

  /** How many streams this process holds. */
  get streamCount(): number {
    let count = 0;
    for (const streams of this.streams.values()) count += streams.size;
    return count;
  }

  /** The streams this process holds, by clinic (the access checks go through them). */
  streamsOf(clinicId: number): ReadonlySet<ClinicStream> {
    return this.streams.get(clinicId) ?? new Set();
  }

  get clinicsStreaming(): number[] {
    return [...this.streams.keys()];
  }

  receive(payload: string): void {
    const announcement = parseAnnouncement(payload);
    if (!announcement) return;
    for (const listener of this.clinicListeners) listener(announcement.c);
    // An import replaces what screens show wholesale.
    if (announcement.r === 'backup' && announcement.a === 'import') {
      for (const stream of this.streamsOf(announcement.c)) stream.resync();
      return;
    }
    const event = clinicEventOf(announcement);
    if (!event) return;
    this.recent.push({ clinicId: announcement.c, event });
    if (this.recent.length > RECENT_MAX) this.recent = this.recent.slice(-RECENT_MAX / 2);
    for (const stream of this.streamsOf(announcement.c)) stream.change(event);
  }

  private gap(): void {
    // What was kept cannot be resumed from: something between may be missing.
    this.recent = [];
    for (const listener of this.gapListeners) listener();
    for (const streams of this.streams.values()) for (const stream of streams) stream.resync();
  }
}
