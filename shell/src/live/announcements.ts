import type { ClinicEvent, LiveAction, LiveResource } from '@dental/shared';

/** At most one announcement in this time; the changes in between are folded into the next one. */
export const ANNOUNCE_WINDOW_MS = 5_000;

/** How a change reads aloud, by resource; null: not worth interrupting anyone for. */
const SUBJECTS: Record<LiveResource, { one: string; plural?: boolean } | null> = {
  appointment: { one: 'An appointment' },
  patient: { one: 'A patient' },
  dentist: { one: 'A dentist' },
  availability: { one: "A dentist's availability" },
  user: { one: 'A staff account' },
  settings: { one: 'The practice settings', plural: true },
  module: { one: "The clinic's modules", plural: true },
  // The server's own sending of reminders, feed links and this user's bell are not news to read out.
  recall: { one: "A patient's recall" },
  recall_type: { one: 'A recall type' },
  chair: { one: 'A chair' },
  waitlist: { one: 'A waitlist entry' },
  booking_request: { one: 'A request from the booking page' },
  // A patient picking a time is seen in the Day view; the booking itself is the news.
  booking_hold: null,
  outbox: null,
  calendar_feed: null,
  activity_seen: null,
};

const VERBS: Record<LiveAction, string> = { created: 'added', updated: 'updated', deleted: 'deleted' };

/** "An appointment was updated at another desk.", or null for a change not read out. */
export function describeChange(event: ClinicEvent): string | null {
  const subject = SUBJECTS[event.resource];
  if (!subject) return null;
  return `${subject.one} ${subject.plural ? 'were' : 'was'} ${VERBS[event.action]} at another desk.`;
}

/**
 * Whether a change is read out at this desk: worth saying, and made at another desk, which may be
 * signed in to this very account (a shared front-desk login). A change that names no desk (from an
 * older API process, or a call that did not say its desk) is read out when someone else made it.
 */
export function isAnnounced(event: ClinicEvent, here: { userId: number | undefined; desk: string }): boolean {
  const elsewhere = event.desk !== null ? event.desk !== here.desk : event.by !== here.userId;
  return elsewhere && describeChange(event) !== null;
}

export interface AnnouncementThrottle {
  add(sentence: string): void;
  dispose(): void;
}

/**
 * Says the first change at once, then at most one sentence a window: a window's single change is
 * said as is, several as "3 changes at other desks.".
 */
export function createAnnouncementThrottle(
  say: (text: string) => void,
  windowMs: number = ANNOUNCE_WINDOW_MS,
): AnnouncementThrottle {
  let lastSaidAt = Number.NEGATIVE_INFINITY;
  let pending: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    timer = undefined;
    if (pending.length === 0) return;
    say(pending.length === 1 ? (pending[0] as string) : `${pending.length} changes at other desks.`);
    pending = [];
    lastSaidAt = Date.now();
  };

  return {
    add(sentence) {
      pending.push(sentence);
      if (timer !== undefined) return;
      const wait = lastSaidAt + windowMs - Date.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    dispose() {
      clearTimeout(timer);
      pending = [];
    },
  };
}
