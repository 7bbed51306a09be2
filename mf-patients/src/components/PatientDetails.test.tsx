import type { AuditRecord } from '@dental/shared';
import {
  createFakeApi,
  type FakeApi,
  pageOf,
  refusal,
  renderScreen,
  staffMember,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { PatientDetails } from './PatientDetails';

const MIA = {
  id: 7,
  name: 'Mia Martin',
  email: 'mia@example.com',
  phone: '555-0107',
  dateOfBirth: '1990-04-12',
  address: '1 Harbour Road',
  emergencyContact: 'Leo Martin 555-0199',
  medicalHistory: 'Penicillin allergy',
  lastVisit: '2026-10-01',
  nextAppointment: null,
  status: 'active',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  version: 1,
};

function opening(id: number, userName: string, at: string, opened: string): AuditRecord {
  return {
    id,
    place: id,
    created_at: at,
    user_id: id,
    user_name: userName,
    action: 'view',
    entity: 'patient',
    entity_id: '7',
    details: { opened },
  };
}
const OPENINGS = [
  opening(12, 'Riley Chen', '2026-11-26T14:05:00Z', 'details'),
  opening(11, 'Dr. Sarah Johnson', '2026-11-25T09:30:00Z', 'appointments'),
];
const moment = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/patients/7').reply(200, MIA);
  api.onGet('/api/patients/7/appointments').reply(200, pageOf([]));
});
afterEach(() => api.restore());

function renderDetails(role: 'admin' | 'receptionist' | 'dentist') {
  return renderScreen(<PatientDetails patientId={7} onClose={() => {}} onEdit={() => {}} />, {
    url: '/patients?patient=7',
    staff: staffMember(role),
  });
}

describe("PatientDetails: who opened this record (admins, as the catalogue's Audit page allows)", () => {
  it('an admin sees the latest openings, who and when, and a link to all of them in Audit', async () => {
    api.onGet('/api/audit').reply(200, pageOf(OPENINGS, 2, 1, 10));
    renderDetails('admin');

    const section = within(await screen.findByRole('region', { name: 'Who opened this record' }));
    const list = within(await section.findByRole('list', { name: 'Latest openings of this record' }));
    const items = list.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Riley Chen');
    expect(items[0]).toHaveTextContent('Opened the details');
    expect(items[0]).toHaveTextContent(moment('2026-11-26T14:05:00Z'));
    expect(within(items[0] as HTMLElement).getByText(moment('2026-11-26T14:05:00Z'))).toHaveAttribute(
      'datetime',
      '2026-11-26T14:05:00Z',
    );
    expect(items[1]).toHaveTextContent('Dr. Sarah Johnson');
    expect(items[1]).toHaveTextContent('Opened the appointments');
    expect(section.getByRole('link', { name: 'See all in Audit' })).toHaveAttribute(
      'href',
      '/audit?patient=7&action=view',
    );
    // The latest ten openings of this patient's record, newest first (the server's order).
    expect(api.sent('get', '/api/audit')).toHaveLength(1);
    expect(api.lastParams('/api/audit')).toEqual({ patient_id: 7, action: 'view', limit: 10, page: 1 });
  });

  it.each(['receptionist', 'dentist'] as const)(
    'a %s sees nothing of it, and nothing is asked',
    async (role) => {
      renderDetails(role);
      expect(await screen.findByText('Penicillin allergy')).toBeInTheDocument();
      expect(await screen.findByText('No appointments yet.')).toBeInTheDocument();
      expect(screen.queryByText('Who opened this record')).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'See all in Audit' })).not.toBeInTheDocument();
      expect(api.sent('get', '/api/audit')).toHaveLength(0);
    },
  );

  it('no openings yet: says so', async () => {
    api.onGet('/api/audit').reply(200, pageOf([], 0, 1, 10));
    renderDetails('admin');
    expect(await screen.findByText('No one has opened this record yet.')).toBeInTheDocument();
  });

  it("a failed read shows the server's message with Retry, and the rest of the record stays", async () => {
    api.onGet('/api/audit').replyOnce(500, refusal('Database unavailable'));
    api.onGet('/api/audit').reply(200, pageOf(OPENINGS, 2, 1, 10));
    const view = renderDetails('admin');
    const section = within(await screen.findByRole('region', { name: 'Who opened this record' }));
    expect(await section.findByRole('alert')).toHaveTextContent('Database unavailable');
    expect(screen.getByText('Penicillin allergy')).toBeInTheDocument();
    await view.user.click(section.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(section.getAllByRole('listitem')).toHaveLength(2));
  });
});
