import type { WaitlistEntry, WaitlistMatch, WaitlistOffer } from '../domain';

/** A waitlist entry as the server answers it: Mia Martin wants a cleaning with Dr. Sarah Johnson. */
export function waitlistEntry(overrides: Partial<WaitlistEntry> = {}): WaitlistEntry {
  return {
    id: 4,
    patient_id: 7,
    patient_name: 'Mia Martin',
    phone: '555-0107',
    treatment: 'Regular Cleaning',
    duration: 60,
    dentist_id: 1,
    dentist_name: 'Dr. Sarah Johnson',
    weekdays: [1, 3],
    part_of_day: 'morning',
    earliest_on: '2027-03-01',
    latest_on: '2027-03-31',
    note: '',
    created_at: '2027-02-01T09:00:00Z',
    version: 2,
    ...overrides,
  };
}

/**
 * A match of a freed time as GET /api/waitlist/matches answers it: the entry, and its offer of the
 * freed time with Dr. Sarah Johnson (it fills the time; it asked for that dentist unless for any; not
 * told of it yet).
 */
export function waitlistMatch(
  entry: Partial<WaitlistEntry>,
  offer: Pick<WaitlistOffer, 'date' | 'time'> & Partial<WaitlistOffer>,
): WaitlistMatch {
  const full = waitlistEntry(entry);
  return {
    entry: full,
    offer: { dentist_id: 1, dentist_name: 'Dr. Sarah Johnson', duration: full.duration, ...offer },
    wants_this_dentist: full.dentist_id === (offer.dentist_id ?? 1),
    unfilled_minutes: 0,
    told: null,
  };
}
