import type { ActivityRecord, ActivitySeen } from '@dental/shared';
import { useMutation, useQueryClient } from '@dental/shared/kit';
import { useCallback } from 'react';
import { dashboardKeys, putActivitySeen, useActivitySeenMarker } from './dashboardApi';

/**
 * What a staff member has already seen of the clinic's activity: the newest record (audit id) they
 * have seen, kept on the server per user, so every browser of theirs counts the same new records.
 * Another browser moving it announces an `activity_seen` change, which reads it again here.
 */

/** Whether a record came after the marker (records are numbered in the order they were written). */
export const isNewer = (record: Pick<ActivityRecord, 'id'>, seenId: number | null): boolean =>
  seenId !== null && record.id > seenId;

/** How many of these records are new to the holder of the marker; none while it is not known. */
export function countUnseen(
  records: ReadonlyArray<Pick<ActivityRecord, 'id'>>,
  seenId: number | null,
): number {
  return records.filter((record) => isNewer(record, seenId)).length;
}

/** The signed-in user's marker (null until it is read) and a way to move it forward. */
export function useActivitySeen() {
  const queryClient = useQueryClient();
  const marker = useActivitySeenMarker();
  const seenId = marker.data?.seen_id ?? null;

  const save = useMutation({
    mutationFn: putActivitySeen,
    onMutate: (id: number) => {
      // The badge clears at once; the server's answer (never lower) settles it.
      queryClient.setQueryData<ActivitySeen>(dashboardKeys.seen, (current) =>
        current && current.seen_id >= id ? current : { seen_id: id },
      );
    },
    onSuccess: (saved) => {
      queryClient.setQueryData<ActivitySeen>(dashboardKeys.seen, (current) =>
        current && current.seen_id > saved.seen_id ? current : saved,
      );
    },
    // Not saved: what the server holds is what counts.
    onError: () => void queryClient.invalidateQueries({ queryKey: dashboardKeys.seen }),
  });
  const { mutate } = save;

  /** Marks everything up to this record as seen; never moves the marker back. */
  const markSeen = useCallback(
    (newest: Pick<ActivityRecord, 'id'>) => {
      const current = queryClient.getQueryData<ActivitySeen>(dashboardKeys.seen);
      if (current && current.seen_id >= newest.id) return;
      mutate(newest.id);
    },
    [queryClient, mutate],
  );

  return { seenId, markSeen };
}
