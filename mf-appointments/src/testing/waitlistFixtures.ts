import type { WaitlistEntry } from '@dental/shared';

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
