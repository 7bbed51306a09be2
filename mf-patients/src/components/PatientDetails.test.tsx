import { type AuditRecord, STALE_WRITE_MESSAGE } from '@dental/shared';
import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  refusal,
  renderScreen,
  staffMember,
  staleWrite,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { miaRecall } from '../testing/recall';
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
  api.onGet('/api/patients/7/recall').reply(200, { data: [] });
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

describe("PatientDetails: the patient's recall", () => {
  const recallItem = async (name: string) => {
    const list = within(await screen.findByRole('list', { name: 'Recall of Mia Martin' }));
    const item = (await list.findAllByRole('listitem')).find((each) => each.textContent?.includes(name));
    if (!item) throw new Error(`No recall ${name}`);
    return within(item);
  };

  it('shows each type: due date, where it stands and the last contact', async () => {
    api.onGet('/api/patients/7/recall').reply(200, {
      data: [
        miaRecall({ type_id: 2, type_name: 'Checkup', due_date: '2099-03-01', scheduled_on: '2099-02-20' }),
        miaRecall({
          type_id: 1,
          due_date: '2020-10-01',
          due_set_by_hand: true,
          last_contact: { at: '2026-11-20T10:00:00Z', kind: 'reminder', note: 'Automatic reminder by email' },
        }),
        miaRecall({
          type_id: 3,
          type_name: 'Gum care',
          due_date: '2099-05-05',
          active: false,
          note: 'Sees a specialist',
        }),
        miaRecall({ type_id: 4, type_name: 'Whitening', due_date: '2099-06-06' }),
      ],
    });
    renderDetails('receptionist');
    const checkup = await recallItem('Checkup');
    expect(checkup.getByText(/^scheduled/)).toBeInTheDocument();
    const hygiene = await recallItem('Hygiene recall');
    expect(hygiene.getByText('overdue')).toBeInTheDocument();
    expect(hygiene.getByText(/set by hand/)).toBeInTheDocument();
    expect(hygiene.getByText(/Last contact .*reminder, Automatic reminder by email/)).toBeInTheDocument();
    const gum = await recallItem('Gum care');
    expect(gum.getByText('off')).toBeInTheDocument();
    expect(gum.getByText('Note: Sees a specialist')).toBeInTheDocument();
    expect(gum.getByRole('button', { name: 'Turn on: Gum care' })).toBeInTheDocument();
    const whitening = await recallItem('Whitening');
    expect(whitening.getByText('due')).toBeInTheDocument();
    expect(whitening.getByText('No contact yet')).toBeInTheDocument();
  });

  it('sets the due date by hand under the version shown', async () => {
    api.onGet('/api/patients/7/recall').reply(200, { data: [miaRecall({})] });
    api
      .onPatch('/api/recall/7/1')
      .reply(200, miaRecall({ due_date: '2027-01-15', due_set_by_hand: true, version: 4 }));
    const view = renderDetails('dentist');
    await view.user.click(
      (await recallItem('Hygiene recall')).getByRole('button', { name: 'Set due date: Hygiene recall' }),
    );
    const dialog = within(await findDialog('Set due date'));
    const due = dialog.getByLabelText('Due date');
    await view.user.clear(due);
    await view.user.click(dialog.getByRole('button', { name: 'Set due date' }));
    expect(await dialog.findByText('Choose the day it falls due')).toBeInTheDocument();
    expect(api.sent('patch')).toHaveLength(0);
    await view.user.type(due, '2027-01-15');
    await view.user.click(dialog.getByRole('button', { name: 'Set due date' }));
    await waitFor(() => expect(api.sent('patch')).toHaveLength(1));
    expect(api.sent('patch')[0]).toMatchObject({ body: { due_date: '2027-01-15' } });
    expect(api.sent('patch')[0]?.ifMatch).toBe('"3"');
  });

  it('turns a type off for the patient with a note, and on again', async () => {
    api.onGet('/api/patients/7/recall').reply(200, {
      data: [miaRecall({}), miaRecall({ type_id: 2, type_name: 'Checkup', active: false, version: 5 })],
    });
    api.onPatch('/api/recall/7/1').reply(200, miaRecall({ active: false, note: 'Moved away', version: 4 }));
    api.onPatch('/api/recall/7/2').reply(200, miaRecall({ type_id: 2, type_name: 'Checkup', version: 6 }));
    const view = renderDetails('receptionist');
    await view.user.click(
      (await recallItem('Hygiene recall')).getByRole('button', { name: 'Turn off: Hygiene recall' }),
    );
    const dialog = within(await findDialog('Turn recall off'));
    await view.user.type(dialog.getByLabelText('Note (optional)'), 'Moved away');
    await view.user.click(dialog.getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(api.sent('patch', '/api/recall/7/1')).toHaveLength(1));
    expect(api.sent('patch', '/api/recall/7/1')[0]?.body).toEqual({ active: false, note: 'Moved away' });

    await view.user.click((await recallItem('Checkup')).getByRole('button', { name: 'Turn on: Checkup' }));
    await waitFor(() => expect(api.sent('patch', '/api/recall/7/2')).toHaveLength(1));
    expect(api.sent('patch', '/api/recall/7/2')[0]?.body).toEqual({ active: true });
  });

  it('a stale change is refused with the message, and the recall is read again', async () => {
    api.onGet('/api/patients/7/recall').reply(200, { data: [miaRecall({ active: false })] });
    api.onPatch('/api/recall/7/1').reply(412, staleWrite(miaRecall({ active: false, version: 9 })));
    const view = renderDetails('receptionist');
    await view.user.click(
      (await recallItem('Hygiene recall')).getByRole('button', { name: 'Turn on: Hygiene recall' }),
    );
    expect(await screen.findByText(STALE_WRITE_MESSAGE)).toBeInTheDocument();
    await waitFor(() => expect(api.sent('get', '/api/patients/7/recall').length).toBeGreaterThan(1));
  });

  it('a patient with no recall yet is told when it starts', async () => {
    renderDetails('receptionist');
    expect(await screen.findByText(/No recall yet/)).toBeInTheDocument();
  });
});
