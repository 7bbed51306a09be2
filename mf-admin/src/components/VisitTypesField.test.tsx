import type { OnlineVisitType } from '@dental/shared';
import { choiceOf, visitTypeError, withChoice } from './VisitTypesField';

const SAVED: OnlineVisitType[] = [
  { treatment: 'Dental Checkup', newPatients: true, returningPatients: true },
  { treatment: 'Root Canal', newPatients: false, returningPatients: true },
];

describe('the visit types between the server and the checkboxes', () => {
  it("reads each treatment's choice, a treatment not in the list being offered to nobody", () => {
    expect(choiceOf(SAVED, 'Dental Checkup')).toEqual({ newPatients: true, returningPatients: true });
    expect(choiceOf(SAVED, 'Root Canal')).toEqual({ newPatients: false, returningPatients: true });
    expect(choiceOf(SAVED, 'Regular Cleaning')).toEqual({ newPatients: false, returningPatients: false });
    expect(choiceOf(undefined, 'Cavity Filling')).toEqual({ newPatients: false, returningPatients: false });
  });

  it('a first tick adds the treatment in the order of the treatments, not at the end', () => {
    expect(withChoice(SAVED, 'Regular Cleaning', 'returningPatients', true)).toEqual([
      { treatment: 'Regular Cleaning', newPatients: false, returningPatients: true },
      ...SAVED,
    ]);
    expect(withChoice(SAVED, 'Tooth Extraction', 'newPatients', true)).toEqual([
      SAVED[0],
      { treatment: 'Tooth Extraction', newPatients: true, returningPatients: false },
      SAVED[1],
    ]);
    expect(withChoice(undefined, 'Cavity Filling', 'newPatients', true)).toEqual([
      { treatment: 'Cavity Filling', newPatients: true, returningPatients: false },
    ]);
  });

  it('changes a treatment offered, and drops it when neither box stays ticked', () => {
    expect(withChoice(SAVED, 'Dental Checkup', 'newPatients', false)).toEqual([
      { treatment: 'Dental Checkup', newPatients: false, returningPatients: true },
      SAVED[1],
    ]);
    expect(withChoice(SAVED, 'Root Canal', 'newPatients', true)).toEqual([
      SAVED[0],
      { treatment: 'Root Canal', newPatients: true, returningPatients: true },
    ]);
    expect(withChoice(SAVED, 'Root Canal', 'returningPatients', false)).toEqual([SAVED[0]]);
  });

  it('puts the order right and leaves the list given unchanged', () => {
    const outOfOrder = [SAVED[1], SAVED[0]] as OnlineVisitType[];
    expect(withChoice(outOfOrder, 'Root Canal', 'newPatients', false)).toEqual([SAVED[0], SAVED[1]]);
    expect(outOfOrder).toEqual([SAVED[1], SAVED[0]]);
  });
});

describe("where the server's refusal of a visit type is shown", () => {
  const message = 'Offer it to new patients, returning patients or both';

  it('on the visit types, naming the treatment at that place in what was sent', () => {
    expect(visitTypeError('onlineBooking.visitTypes.1.newPatients', message, SAVED)).toEqual({
      name: ['onlineBooking', 'visitTypes'],
      message: `Root Canal: ${message}`,
    });
    expect(visitTypeError('onlineBooking.visitTypes', 'Each treatment once', SAVED)).toEqual({
      name: ['onlineBooking', 'visitTypes'],
      message: 'Each treatment once',
    });
    // A place past the list sent: the message alone.
    expect(visitTypeError('onlineBooking.visitTypes.7.treatment', message, SAVED)?.message).toBe(message);
  });

  it('answers null for every other field', () => {
    expect(visitTypeError('onlineBooking.horizonDays', 'At least 1 day', SAVED)).toBeNull();
    expect(visitTypeError('workingHours.monday.end', 'Too early', SAVED)).toBeNull();
  });
});
