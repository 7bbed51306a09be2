import { clinicToday, dayLabel, shiftDay, statusLabel } from './visitFormat';

test('a date reads as the weekday, day, month and year, whatever the browser’s zone', () => {
  expect(dayLabel('2027-01-12')).toBe('Tuesday, 12 January 2027');
});

test("today is the clinic's date: 23:30 UTC is already tomorrow in Auckland", () => {
  const now = new Date('2027-01-12T23:30:00Z');
  expect(clinicToday('UTC', now)).toBe('2027-01-12');
  expect(clinicToday('Pacific/Auckland', now)).toBe('2027-01-13');
  expect(clinicToday('Not/AZone', now)).toBe('2027-01-12');
});

test('days move across months and years', () => {
  expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01');
  expect(shiftDay('2027-03-01', -1)).toBe('2027-02-28');
});

test('statuses are said in the patient’s words', () => {
  expect(statusLabel('pending')).toBe('Booked, not yet confirmed');
  expect(statusLabel('confirmed')).toBe('Confirmed');
  expect(statusLabel('cancelled')).toBe('Cancelled');
});
