import {
  DASHBOARD_STAT_NAMES,
  type DashboardAppointment,
  type DashboardStat,
  endTimeOf,
} from '@dental/shared';
import { todayDay } from '@dental/shared/kit';

/**
 * Shown only in place of what could not be read (docs/product.md, Error messages), and always marked 'Sample' on screen:
 * never mixed with the clinic's own figures.
 */
export const SAMPLE_STATS: DashboardStat[] = [
  { name: DASHBOARD_STAT_NAMES.todayAppointments, value: 8, change: '+2', changeType: 'positive' },
  { name: DASHBOARD_STAT_NAMES.pendingConfirmations, value: 3, change: '-1', changeType: 'positive' },
  { name: DASHBOARD_STAT_NAMES.totalPatients, value: 240, change: '+12', changeType: 'positive' },
  { name: DASHBOARD_STAT_NAMES.activeDentists, value: 4, change: '0', changeType: 'positive' },
];

function sampleAppointment(
  id: number,
  patient: string,
  time: string,
  treatment: string,
  status: DashboardAppointment['status'],
): DashboardAppointment {
  const now = new Date().toISOString();
  return {
    id,
    patient,
    patient_id: id,
    phone: '',
    dentist_id: 0,
    dentist_name: 'Sample Dentist',
    date: todayDay(),
    time,
    duration: 30,
    end_time: endTimeOf(time, 30),
    treatment,
    status,
    notes: null,
    outside_hours: false,
    outside_hours_reason: null,
    overlapping: false,
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

export function sampleAppointments(): DashboardAppointment[] {
  return [
    sampleAppointment(-1, 'Sample Patient', '09:00', 'Dental Checkup', 'confirmed'),
    sampleAppointment(-2, 'Example Person', '10:30', 'Regular Cleaning', 'pending'),
    sampleAppointment(-3, 'Demo Visitor', '14:00', 'Cavity Filling', 'pending'),
  ];
}
