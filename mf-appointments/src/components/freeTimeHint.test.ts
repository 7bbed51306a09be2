import { formatDay } from '@dental/shared/kit';
import { type FreeTimeHintFacts, freeTimeHint } from './freeTimeHint';

/** Dentist, day and length chosen, the free times read: each test changes what it is about. */
const ready: FreeTimeHintFacts = {
  outsideHours: false,
  dentistId: 2,
  date: '2030-05-14',
  length: 30,
  lengthGiven: true,
  readFailed: false,
  offered: { date: '2030-05-14', times: ['09:00', '09:30'], message: null },
  dentistName: 'Dr. Sarah Johnson',
};

describe('freeTimeHint', () => {
  it('says any time may be typed outside open hours, whatever else is missing', () => {
    expect(freeTimeHint({ ...ready, outsideHours: true, dentistId: null, offered: null })).toBe(
      'Any time the dentist and the patient have free: the visit is marked as outside open hours.',
    );
  });

  it.each([
    ['no dentist', { dentistId: null }],
    ['no day', { date: null }],
  ])('asks for the dentist and date with %s', (_case, missing: Partial<FreeTimeHintFacts>) => {
    expect(freeTimeHint({ ...ready, ...missing })).toBe('Choose the dentist and date to see the free times.');
  });

  it('names the lengths allowed when the length given is off the grid', () => {
    expect(freeTimeHint({ ...ready, length: null, lengthGiven: true })).toBe(
      'Give a length of 5 to 480 minutes in steps of 5 to see the free times.',
    );
  });

  it('asks for the treatment or a length when none is given', () => {
    expect(freeTimeHint({ ...ready, length: null, lengthGiven: false })).toBe(
      'Choose the treatment (or give the length) to see the free times.',
    );
  });

  it('says the free times could not be read', () => {
    expect(freeTimeHint({ ...ready, readFailed: true, offered: null })).toBe(
      "The dentist's free times could not be read.",
    );
  });

  it('says the free times are being read', () => {
    expect(freeTimeHint({ ...ready, offered: null })).toBe("Reading the dentist's free times...");
  });

  it("gives the server's reason when no time is free, and what to do", () => {
    const offered = { date: '2030-05-14', times: [], message: 'The clinic is closed on this day' };
    expect(freeTimeHint({ ...ready, offered })).toBe(
      'The clinic is closed on this day: choose another day or dentist.',
    );
  });

  it('says no time is free when the server gives no reason', () => {
    const offered = { date: '2030-05-14', times: [], message: null };
    expect(freeTimeHint({ ...ready, offered })).toBe(
      'No free time on this day: choose another day or dentist.',
    );
  });

  it('counts the free start times, for whom, on which day and for how long', () => {
    expect(freeTimeHint(ready)).toBe(
      `2 start times free for Dr. Sarah Johnson on ${formatDay('2030-05-14')} for 30 minutes.`,
    );
  });

  it('says one start time, and "this dentist" before the dentists are read', () => {
    const offered = { date: '2030-05-14', times: ['09:00'], message: null };
    expect(freeTimeHint({ ...ready, offered, dentistName: undefined })).toBe(
      `1 start time free for this dentist on ${formatDay('2030-05-14')} for 30 minutes.`,
    );
  });
});
