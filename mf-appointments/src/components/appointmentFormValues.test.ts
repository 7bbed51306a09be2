import { DEFAULT_TREATMENT_MINUTES } from '@dental/shared';
import { MIA_VISIT, visit } from '../testing/fixtures';
import {
  type AppointmentFormValues,
  isDay,
  isLength,
  newValuesOf,
  requestOf,
  valuesOf,
} from './appointmentFormValues';

const typed: AppointmentFormValues = {
  patient: '  Mia Martin ',
  phone: ' 555-0107 ',
  patient_id: 7,
  date: '2099-12-02',
  time: '10:00',
  dentist_id: 2,
  treatment: 'Root Canal',
  duration: 90,
  notes: '  Sensitive upper left molar  ',
};

describe('valuesOf', () => {
  it("shows an edited visit's fields, an empty reason and notes for none", () => {
    expect(valuesOf(visit({ notes: null }))).toEqual({
      patient: 'Mia Martin',
      phone: '555-0107',
      patient_id: 7,
      date: '2099-12-02',
      time: '10:00',
      dentist_id: 2,
      treatment: 'Root Canal',
      duration: 90,
      outside_hours: false,
      outside_hours_reason: '',
      notes: '',
      // An older answer names no chair: any free one.
      chair_id: 0,
    });
  });

  it("shows the visit's chair", () => {
    expect(valuesOf(visit({ chair_id: 2, chair_name: 'Chair 2' }))).toMatchObject({ chair_id: 2 });
  });

  it('keeps the reason of a visit outside open hours', () => {
    const outside = visit({ outside_hours: true, outside_hours_reason: 'Broken tooth' });
    expect(valuesOf(outside)).toMatchObject({ outside_hours: true, outside_hours_reason: 'Broken tooth' });
  });
});

describe('newValuesOf', () => {
  const none = { date: null, time: null, dentistId: null, treatment: null };

  it('starts not repeating, with nothing else given', () => {
    expect(newValuesOf(none, DEFAULT_TREATMENT_MINUTES)).toEqual({
      chair_id: 0,
      repeat_unit: 'none',
      repeat_every: 1,
      repeat_end: 'count',
      repeat_count: 6,
    });
  });

  it("takes the link's day, time, dentist and treatment, with the treatment's length", () => {
    const start = { date: '2099-12-02', time: '09:30', dentistId: 2, treatment: 'Root Canal' as const };
    expect(newValuesOf(start, { ...DEFAULT_TREATMENT_MINUTES, 'Root Canal': 120 })).toMatchObject({
      date: '2099-12-02',
      time: '09:30',
      dentist_id: 2,
      treatment: 'Root Canal',
      duration: 120,
    });
  });
});

describe('requestOf', () => {
  it('trims the names and notes, and sends no reason for a visit in open hours', () => {
    expect(requestOf({ ...typed, outside_hours: false, outside_hours_reason: 'left over' })).toEqual({
      patient: 'Mia Martin',
      phone: '555-0107',
      patient_id: 7,
      date: '2099-12-02',
      time: '10:00',
      dentist_id: 2,
      treatment: 'Root Canal',
      duration: 90,
      notes: 'Sensitive upper left molar',
    });
  });

  it('sends a chair chosen, and none for any free chair', () => {
    expect(requestOf({ ...typed, chair_id: 3 })).toMatchObject({ chair_id: 3 });
    expect(requestOf({ ...typed, chair_id: 0 })).not.toHaveProperty('chair_id');
  });

  it('sends a new patient as no id, and blank notes as none', () => {
    const body = requestOf({ ...typed, patient_id: undefined, notes: '   ' });
    expect(body.patient_id).toBeNull();
    expect(body.notes).toBeNull();
    expect(requestOf({ ...typed, notes: undefined }).notes).toBeNull();
  });

  it('marks a visit outside open hours with its reason, trimmed', () => {
    expect(
      requestOf({ ...typed, outside_hours: true, outside_hours_reason: ' Broken tooth ' }),
    ).toMatchObject({
      outside_hours: true,
      outside_hours_reason: 'Broken tooth',
    });
    expect(requestOf({ ...typed, outside_hours: true }).outside_hours_reason).toBe('');
  });

  it('round-trips an edited visit', () => {
    const { id: _id, ...wire } = MIA_VISIT;
    expect(requestOf(valuesOf(MIA_VISIT))).toMatchObject({ patient: wire.patient, notes: wire.notes });
  });
});

describe('isDay and isLength', () => {
  it('take a whole day and a length on the grid only', () => {
    expect(isDay('2099-12-02')).toBe(true);
    expect(isDay('2099-13-02')).toBe(false);
    expect(isDay(undefined)).toBe(false);
    expect(isLength(30)).toBe(true);
    expect(isLength(32)).toBe(false);
    expect(isLength(0)).toBe(false);
    expect(isLength('30')).toBe(false);
  });
});
