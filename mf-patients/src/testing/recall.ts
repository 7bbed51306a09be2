import type { RecallRow } from '@dental/shared';

/** Mia Martin's hygiene recall as the server answers it, with what a test needs changed. */
export function miaRecall(change: Partial<RecallRow> = {}): RecallRow {
  return {
    patient_id: 7,
    patient_name: 'Mia Martin',
    phone: '555-0107',
    email: 'mia@example.com',
    type_id: 1,
    type_name: 'Hygiene recall',
    treatment: 'Regular Cleaning',
    last_visit: '2026-04-01',
    last_dentist_id: 2,
    last_dentist: 'Dr. Sarah Johnson',
    due_date: '2026-10-01',
    due_set_by_hand: false,
    snoozed_until: null,
    scheduled_on: null,
    last_contact: null,
    active: true,
    note: '',
    version: 3,
    ...change,
  };
}
