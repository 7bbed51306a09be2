import {
  type BookingState,
  bookingReducer,
  FRESH_BOOKING,
  leavesChosenPatient,
  treatmentBringingLength,
} from './bookingState';

const MIA = { id: 7, name: 'Mia Martin', phone: '555-0107' };
const changed = (fields: Parameters<typeof bookingReducer>[1] & { type: 'changed' }) => fields;

describe('bookingReducer', () => {
  it('starts afresh from the patient shown when the form is filled', () => {
    const used: BookingState = { patient: MIA, linkPatientFilled: 7, lengthTyped: true, timeToCheck: true };
    expect(bookingReducer(used, { type: 'filled', patient: null })).toEqual(FRESH_BOOKING);
    expect(bookingReducer(used, { type: 'filled', patient: MIA })).toEqual({
      ...FRESH_BOOKING,
      patient: MIA,
    });
  });

  it('remembers the patient picked, and the link patient filled in', () => {
    expect(bookingReducer(FRESH_BOOKING, { type: 'patientPicked', patient: MIA })).toEqual({
      ...FRESH_BOOKING,
      patient: MIA,
    });
    expect(bookingReducer(FRESH_BOOKING, { type: 'linkPatientFilled', patient: MIA })).toEqual({
      ...FRESH_BOOKING,
      patient: MIA,
      linkPatientFilled: 7,
    });
  });

  it.each([
    ['dentist', { dentist_id: 2 }],
    ['date', { date: '2099-12-02' }],
    ['length', { duration: 45 }],
  ])('checks the time again once the %s changes', (_field, fields) => {
    expect(bookingReducer(FRESH_BOOKING, changed({ type: 'changed', changed: fields })).timeToCheck).toBe(
      true,
    );
  });

  it('marks a typed length, which a later treatment leaves alone (its dentist part checks the time again)', () => {
    const typed = bookingReducer(FRESH_BOOKING, { type: 'changed', changed: { duration: 45 } });
    expect(typed.lengthTyped).toBe(true);
    const checked = bookingReducer(typed, { type: 'timeChecked' });
    expect(checked).toEqual({ ...FRESH_BOOKING, lengthTyped: true });
    expect(bookingReducer(checked, { type: 'changed', changed: { treatment: 'Root Canal' } })).toEqual({
      ...checked,
      timeToCheck: true,
    });
  });

  it('checks the time again when another chair is chosen', () => {
    expect(bookingReducer(FRESH_BOOKING, { type: 'changed', changed: { chair_id: 2 } })).toEqual({
      ...FRESH_BOOKING,
      timeToCheck: true,
    });
  });

  it('checks the time again when a treatment brings its length', () => {
    const next = bookingReducer(FRESH_BOOKING, { type: 'changed', changed: { treatment: 'Root Canal' } });
    expect(next).toEqual({ ...FRESH_BOOKING, timeToCheck: true });
  });

  it('leaves the flags alone for other fields', () => {
    expect(
      bookingReducer(FRESH_BOOKING, { type: 'changed', changed: { notes: 'x', time: '09:00' } }),
    ).toEqual(FRESH_BOOKING);
  });
});

describe('treatmentBringingLength', () => {
  it('is the treatment chosen, until a length is typed', () => {
    expect(treatmentBringingLength({ lengthTyped: false }, { treatment: 'Root Canal' })).toBe('Root Canal');
    expect(treatmentBringingLength({ lengthTyped: true }, { treatment: 'Root Canal' })).toBeNull();
    expect(
      treatmentBringingLength({ lengthTyped: false }, { treatment: 'Root Canal', duration: 30 }),
    ).toBeNull();
    expect(treatmentBringingLength({ lengthTyped: false }, { notes: 'x' })).toBeNull();
  });
});

describe('leavesChosenPatient', () => {
  it("is true once the name or phone is no longer the chosen patient's", () => {
    expect(
      leavesChosenPatient(MIA, { patient: 'Mia Mart' }, { patient: 'Mia Mart', phone: '555-0107' }),
    ).toBe(true);
    expect(
      leavesChosenPatient(MIA, { phone: '555-0100' }, { patient: 'Mia Martin', phone: '555-0100' }),
    ).toBe(true);
  });

  it("is false while they are the chosen patient's (spaces aside), for other fields, or with none chosen", () => {
    expect(
      leavesChosenPatient(MIA, { patient: 'Mia Martin ' }, { patient: 'Mia Martin ', phone: '555-0107' }),
    ).toBe(false);
    expect(leavesChosenPatient(MIA, { notes: 'x' }, { patient: 'Someone', phone: '1' })).toBe(false);
    expect(leavesChosenPatient(null, { patient: 'Someone' }, { patient: 'Someone', phone: '1' })).toBe(false);
  });
});
