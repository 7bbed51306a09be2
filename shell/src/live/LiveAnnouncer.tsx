import { THIS_DESK, useAuthStore } from '@dental/shared';
import { useClinicEvents } from '@dental/shared/kit';
import { VisuallyHidden } from '@dental/shared/ui';
import { useEffect, useRef, useState } from 'react';
import {
  type AnnouncementThrottle,
  createAnnouncementThrottle,
  describeChange,
  isAnnounced,
} from './announcements';

/**
 * A polite live region: screen readers hear, in words, what other desks change while this one works
 * (at most one sentence every five seconds), never what this desk did.
 */
export function LiveAnnouncer() {
  const userId = useAuthStore((state) => state.user?.id);
  // The count tells two equal sentences apart, so the second is read too (it ends in a no-break space).
  const [said, setSaid] = useState({ text: '', count: 0 });
  const throttle = useRef<AnnouncementThrottle | null>(null);

  useEffect(() => {
    const created = createAnnouncementThrottle((text) =>
      setSaid((previous) => ({ text, count: previous.count + 1 })),
    );
    throttle.current = created;
    return () => {
      created.dispose();
      throttle.current = null;
    };
  }, []);

  useClinicEvents((event) => {
    if (!isAnnounced(event, { userId, desk: THIS_DESK })) return;
    const sentence = describeChange(event);
    if (sentence) throttle.current?.add(sentence);
  });

  return (
    <VisuallyHidden>
      <span aria-live="polite" aria-atomic="true" data-testid="live-desk-announcer">
        {said.text}
        {said.count % 2 === 1 ? '\u00a0' : ''}
      </span>
    </VisuallyHidden>
  );
}
