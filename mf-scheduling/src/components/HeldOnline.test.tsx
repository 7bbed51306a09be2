import type { HeldTime } from '@dental/shared';
import { heldMinutesLeft, heldOnlineLabel } from '@dental/shared';
import { heldSpan, stillHeld } from './HeldOnline';

const hold = (expires_at: string): HeldTime => ({
  id: 1,
  date: '2099-05-06',
  time: '14:00',
  end_time: '14:30',
  duration: 30,
  treatment: 'Dental Checkup',
  dentist_id: 1,
  dentist_name: 'Dr. Sarah Johnson',
  chair_id: 1,
  expires_at,
});

test('a hold counts down in whole minutes, and says 1 min in its last minute', () => {
  const now = Date.parse('2099-05-06T10:00:00Z');
  expect(heldOnlineLabel(heldMinutesLeft('2099-05-06T10:04:10Z', now))).toBe('Held online, 5 min left');
  expect(heldOnlineLabel(heldMinutesLeft('2099-05-06T10:04:00Z', now))).toBe('Held online, 4 min left');
  expect(heldOnlineLabel(heldMinutesLeft('2099-05-06T10:00:05Z', now))).toBe('Held online, 1 min left');
});

test('a hold that has let go is no longer shown, whatever the last read said', () => {
  const now = Date.parse('2099-05-06T10:00:00Z');
  const live = hold('2099-05-06T10:00:01Z');
  expect(stillHeld([live, hold('2099-05-06T10:00:00Z'), hold('2099-05-06T09:59:00Z')], now)).toEqual([live]);
  expect(stillHeld(undefined, now)).toEqual([]);
});

test("a held time takes its treatment's minutes on the grid", () => {
  expect(heldSpan(hold('2099-05-06T10:00:00Z'))).toEqual({ start: 14 * 60, end: 14 * 60 + 30 });
});
