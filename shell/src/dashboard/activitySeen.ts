import type { ActivityRecord } from '@dental/shared';
import { useCallback, useMemo, useSyncExternalStore } from 'react';

/**
 * What a staff member has already seen of the clinic's activity: the newest record they have seen,
 * kept in this browser per user, so the bell's badge counts only what is new to them.
 */
export interface SeenMarker {
  id: number;
  createdAt: string;
}

export const seenKeyOf = (userId: number) => `dental_activity_seen_${userId}`;

/** Same-tab writes; other tabs hear the browser's own `storage` event. */
const SEEN_EVENT = 'dental-activity-seen';

function readRaw(key: string | null): string | null {
  if (!key) return null;
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function parseMarker(raw: string | null): SeenMarker | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<SeenMarker>;
    if (typeof value.id === 'number' && typeof value.createdAt === 'string') {
      return { id: value.id, createdAt: value.createdAt };
    }
  } catch {
    // A hand-edited or foreign value counts as nothing seen.
  }
  return null;
}

/** Whether a record came after the marker: later in time, or at the same instant with a later id. */
export function isNewer(
  record: Pick<ActivityRecord, 'id' | 'created_at'>,
  marker: SeenMarker | null,
): boolean {
  if (!marker) return true;
  const at = Date.parse(record.created_at);
  const seenAt = Date.parse(marker.createdAt);
  if (Number.isFinite(at) && Number.isFinite(seenAt) && at !== seenAt) return at > seenAt;
  return record.id > marker.id;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  window.addEventListener(SEEN_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(SEEN_EVENT, onChange);
  };
}

/** The signed-in user's marker, following other tabs, and a way to move it forward. */
export function useActivitySeen(userId: number | undefined) {
  const key = userId === undefined ? null : seenKeyOf(userId);
  const raw = useSyncExternalStore(
    subscribe,
    () => readRaw(key),
    () => null,
  );
  const marker = useMemo(() => parseMarker(raw), [raw]);

  /** Marks everything up to this record as seen; never moves the marker back. */
  const markSeen = useCallback(
    (newest: Pick<ActivityRecord, 'id' | 'created_at'>) => {
      if (!key || !isNewer(newest, parseMarker(readRaw(key)))) return;
      try {
        window.localStorage.setItem(key, JSON.stringify({ id: newest.id, createdAt: newest.created_at }));
      } catch {
        return;
      }
      window.dispatchEvent(new Event(SEEN_EVENT));
    },
    [key],
  );

  return { marker, markSeen };
}

/** How many of these records are new to the holder of the marker. */
export function countUnseen(records: ActivityRecord[], marker: SeenMarker | null): number {
  return records.filter((record) => isNewer(record, marker)).length;
}
