import { monthTitle, monthWeeks, parseAsMonth, shiftDay, shiftMonth } from './calendarMonth';

describe('the calendar month', () => {
  it('lays a month out Sunday to Saturday', () => {
    // November 2026 starts on a Sunday and has 30 days.
    const weeks = monthWeeks('2026-11');
    expect(weeks).toHaveLength(5);
    expect(weeks[0]?.[0]).toBe('2026-11-01');
    expect(weeks[4]).toEqual(['2026-11-29', '2026-11-30', null, null, null, null, null]);
    // December 2026 starts on a Tuesday.
    expect(monthWeeks('2026-12')[0]).toEqual([
      null,
      null,
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
    ]);
    // February 2026: 28 days, from a Sunday: exactly four weeks.
    expect(monthWeeks('2026-02')).toHaveLength(4);
  });

  it('moves between months and days across year ends', () => {
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01');
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
    expect(monthTitle('2026-11')).toBe('November 2026');
  });

  it('reads only a real month from the URL', () => {
    expect(parseAsMonth.parse('2026-11')).toBe('2026-11');
    expect(parseAsMonth.parse('2026-13')).toBeNull();
    expect(parseAsMonth.parse('november')).toBeNull();
  });
});
