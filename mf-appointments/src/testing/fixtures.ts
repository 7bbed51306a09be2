import {
  type Appointment,
  type Chair,
  DEFAULT_NOTIFICATIONS,
  DEFAULT_ONLINE_BOOKING,
  DEFAULT_PRACTICE_HOURS,
  DEFAULT_TREATMENT_MINUTES,
  endTimeOf,
  type PracticeSettings,
  type WireDentist,
  type WirePatient,
  wholeVisitParts,
  workingHoursOf,
} from '@dental/shared';

/** Appointments, dentists and patients as the server answers them, for this module's component tests. */

const STAMP = '2026-01-01T00:00:00Z';

export function dentist(id: number, name: string, overrides: Partial<WireDentist> = {}): WireDentist {
  return {
    id,
    name,
    email: `dentist${id}@brightsmile.example`,
    phone: '555-0200',
    specialty: 'General Dentistry',
    license: `DDS-${id}`,
    years_of_experience: 10,
    working_days: '12345',
    status: 'active',
    working_hours: workingHoursOf('12345'),
    days_per_week: 5,
    created_at: STAMP,
    updated_at: STAMP,
    version: 1,
    ...overrides,
  };
}

/** The clinic's settings as GET /api/settings answers a clinic that never saved any. */
export const SETTINGS: PracticeSettings = {
  practiceName: 'Bright Smile Dental',
  address: '',
  phone: '',
  email: '',
  workingHours: DEFAULT_PRACTICE_HOURS,
  notifications: DEFAULT_NOTIFICATIONS,
  timeZone: 'UTC',
  idleTimeoutMinutes: 30,
  reminderLeadHours: 24,
  recallRemindersEnabled: false,
  recallReminderDaysBefore: 14,
  treatmentMinutes: DEFAULT_TREATMENT_MINUTES,
  bookingGridMinutes: 15,
  turnoverMinutes: 0,
  dentistParts: wholeVisitParts(DEFAULT_TREATMENT_MINUTES),
  mfaRequired: 'none',
  onlineBooking: { ...DEFAULT_ONLINE_BOOKING, visitTypes: [] },
  slug: 'bright-smile-dental',
  version: 1,
};

export const SARAH = dentist(1, 'Dr. Sarah Johnson');
export const MICHAEL = dentist(2, 'Dr. Michael Chen');
export const RETIRED = dentist(3, 'Dr. Old Retired', { status: 'inactive' });

/** The clinic's chairs: Sarah's, Michael's, and one out of service. */
export const CHAIRS: Chair[] = [
  {
    id: 1,
    name: 'Chair 1',
    position: 1,
    in_service: true,
    bookable_online: true,
    default_dentist_id: 1,
    default_dentist_name: 'Dr. Sarah Johnson',
    version: 1,
  },
  {
    id: 2,
    name: 'Chair 2',
    position: 2,
    in_service: true,
    bookable_online: true,
    default_dentist_id: 2,
    default_dentist_name: 'Dr. Michael Chen',
    version: 1,
  },
  {
    id: 3,
    name: 'Chair 3',
    position: 3,
    in_service: false,
    bookable_online: false,
    default_dentist_id: null,
    default_dentist_name: null,
    version: 1,
  },
];

export function visit(overrides: Partial<Appointment> = {}): Appointment {
  const time = overrides.time ?? '10:00';
  const duration = overrides.duration ?? 90;
  return {
    id: 31,
    patient: 'Mia Martin',
    patient_id: 7,
    phone: '555-0107',
    dentist_id: 2,
    dentist_name: 'Dr. Michael Chen',
    date: '2099-12-02',
    time,
    duration,
    end_time: endTimeOf(time, duration),
    treatment: 'Root Canal',
    status: 'pending',
    notes: 'Sensitive upper left molar',
    outside_hours: false,
    outside_hours_reason: null,
    overlapping: false,
    created_at: STAMP,
    updated_at: STAMP,
    version: 1,
    ...overrides,
  };
}

export const MIA_VISIT = visit();
export const TOM_VISIT = visit({
  id: 32,
  patient: 'Tom Baker',
  patient_id: 8,
  phone: '555-0108',
  dentist_id: 1,
  dentist_name: 'Dr. Sarah Johnson',
  time: '14:00',
  treatment: 'Dental Checkup',
  status: 'confirmed',
  notes: null,
});
export const ANA_VISIT = visit({
  id: 33,
  patient: 'Ana Diaz',
  patient_id: 9,
  phone: '555-0109',
  time: '15:00',
  treatment: 'Cavity Filling',
  status: 'cancelled',
  notes: null,
});

export const MIA: WirePatient = {
  id: 7,
  name: 'Mia Martin',
  email: 'mia@example.com',
  phone: '555-0107',
  dateOfBirth: '1990-04-12',
  address: null,
  emergencyContact: null,
  medicalHistory: null,
  lastVisit: null,
  nextAppointment: null,
  status: 'active',
  created_at: STAMP,
  updated_at: STAMP,
  version: 1,
};
