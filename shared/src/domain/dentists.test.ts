import { daysPerWeekOf, dentistWriteSchema, workingDaysString, workingHoursOf } from './dentists';

describe('workingHoursOf', () => {
  it('gives listed weekdays 09:00-17:00 and the rest of the week off', () => {
    const hours = workingHoursOf('12345');
    expect(hours.monday).toEqual({ start: '09:00', end: '17:00', off: false });
    expect(hours.friday).toEqual({ start: '09:00', end: '17:00', off: false });
    expect(hours.saturday).toEqual({ start: '00:00', end: '00:00', off: true });
    expect(hours.sunday).toEqual({ start: '00:00', end: '00:00', off: true });
  });

  it('gives a listed Saturday or Sunday 09:00-13:00', () => {
    const hours = workingHoursOf('67');
    expect(hours.saturday).toEqual({ start: '09:00', end: '13:00', off: false });
    expect(hours.sunday).toEqual({ start: '09:00', end: '13:00', off: false });
    expect(hours.monday.off).toBe(true);
  });

  it('makes an unlisted weekday off too', () => {
    const hours = workingHoursOf('135');
    expect(hours.tuesday).toEqual({ start: '00:00', end: '00:00', off: true });
    expect(hours.wednesday.off).toBe(false);
    expect(Object.keys(hours)).toEqual([
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
      'sunday',
    ]);
  });
});

describe('daysPerWeekOf', () => {
  it('counts the days worked', () => {
    expect(daysPerWeekOf('12345')).toBe(5);
    expect(daysPerWeekOf('1234567')).toBe(7);
    expect(daysPerWeekOf('6')).toBe(1);
  });
});

describe('workingDaysString', () => {
  it('sorts the days and refuses repeats, other digits and an empty list', () => {
    expect(workingDaysString.parse('531')).toBe('135');
    expect(workingDaysString.safeParse('1123').success).toBe(false);
    expect(workingDaysString.safeParse('08').success).toBe(false);
    expect(workingDaysString.safeParse('').success).toBe(false);
  });
});

describe('dentistWriteSchema', () => {
  const valid = {
    name: 'Dr. Ada Lane',
    email: 'ada@example.com',
    phone: '555 010 1234',
    specialty: 'Orthodontics',
    license: 'LIC-1',
  };

  it('accepts a body with derived fields, which it drops', () => {
    const parsed = dentistWriteSchema.parse({ ...valid, working_days: '21', days_per_week: 9, id: 4 });
    expect(parsed.workingDays).toBe('12');
    expect(parsed).not.toHaveProperty('days_per_week');
    expect(parsed).not.toHaveProperty('id');
  });

  it('refuses an unknown specialty, experience over 70 and unknown fields', () => {
    expect(dentistWriteSchema.safeParse({ ...valid, specialty: 'Magic' }).success).toBe(false);
    expect(dentistWriteSchema.safeParse({ ...valid, years_of_experience: 71 }).success).toBe(false);
    expect(dentistWriteSchema.safeParse({ ...valid, favourite: 'x' }).success).toBe(false);
  });
});
