import { daysPerWeekOf, type WireDentist, workingHoursOf } from '@dental/shared';

/**
 * Shown only when the clinic's dentists cannot be read (docs/product.md, Error messages: 'Failed to load dentists data.
 * Showing sample data.'): marked 'Sample' on screen, never editable, never mixed with real ones.
 */
function sampleDentist(
  id: number,
  name: string,
  specialty: string,
  years: number,
  workingDays: string,
): WireDentist {
  return {
    id,
    name,
    email: `${name
      .toLowerCase()
      .replace(/[^a-z]+/g, '.')
      .replace(/^\.|\.$/g, '')}@sample.example`,
    phone: '(555) 000-0000',
    specialty,
    license: `SAMPLE-${-id}`,
    years_of_experience: years,
    working_days: workingDays,
    status: 'active',
    working_hours: workingHoursOf(workingDays),
    days_per_week: daysPerWeekOf(workingDays),
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    version: 1,
  };
}

export const SAMPLE_DENTISTS: WireDentist[] = [
  sampleDentist(-1, 'Dr. Sample Smith', 'General Dentistry', 12, '12345'),
  sampleDentist(-2, 'Dr. Example Jones', 'Orthodontics', 8, '1246'),
  sampleDentist(-3, 'Dr. Demo Brown', 'Pediatric Dentistry', 5, '23456'),
];
