import { STALE_WRITE_MESSAGE, type WireDentist, workingHoursOf } from '@dental/shared';
import {
  createFakeApi,
  createFakeLiveEvents,
  type FakeApi,
  type FakeLiveEvents,
  findDialog,
  renderScreen,
  staffMember,
  staleWrite,
} from '@dental/shared/testing';
import { waitFor, within } from '@testing-library/react';
import { DentistForm } from './DentistForm';

/** Dr. Chen as this desk opened the record. */
const CHEN: WireDentist = {
  id: 2,
  name: 'Dr. Michael Chen',
  email: 'michael.chen@clinic.example',
  phone: '555-0102',
  specialty: 'Orthodontics',
  license: 'DDS-2002',
  years_of_experience: 8,
  working_days: '12345',
  status: 'active',
  working_hours: workingHoursOf('12345'),
  days_per_week: 5,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  version: 2,
};
const THEIRS: WireDentist = { ...CHEN, phone: '555-0999', version: 3 };
const ME = staffMember('admin', { id: 1 });

let api: FakeApi;
let events: FakeLiveEvents;
beforeEach(() => {
  api = createFakeApi();
  events = createFakeLiveEvents();
});
afterEach(() => api.restore());

function renderForm() {
  const onSaved = jest.fn();
  const view = renderScreen(<DentistForm open dentist={CHEN} onClose={() => {}} onSaved={onSaved} />, {
    events,
    staff: ME,
  });
  return { ...view, onSaved };
}

async function openWithLicense(view: ReturnType<typeof renderForm>, license: string) {
  const dialog = await findDialog('Edit Dentist');
  const field = within(dialog).getByLabelText('License Number');
  await waitFor(() => expect(field).toHaveValue('DDS-2002'));
  await view.user.clear(field);
  await view.user.type(field, license);
  return dialog;
}

const saveButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Save Changes' });

describe('DentistForm: no edit is silently lost', () => {
  it('saves with If-Match naming the version it showed', async () => {
    api.onPut('/api/dentists/2').reply(200, { ...CHEN, license: 'DDS-9', version: 3 });
    const view = renderForm();
    const dialog = await openWithLicense(view, 'DDS-9');
    await view.user.click(saveButton(dialog));
    await waitFor(() => expect(view.onSaved).toHaveBeenCalled());
    const [put] = api.sent('put', '/api/dentists/2');
    expect(put?.ifMatch).toBe('"2"');
    expect(put?.body).toMatchObject({ license: 'DDS-9', phone: '555-0102' });
  });

  it('a stale Save (412) shows the alert; Save mine over it re-sends with the newer tag', async () => {
    api.onPut('/api/dentists/2').replyOnce(412, staleWrite(THEIRS));
    api.onPut('/api/dentists/2').replyOnce(200, { ...THEIRS, license: 'DDS-9', version: 4 });
    const view = renderForm();
    const dialog = await openWithLicense(view, 'DDS-9');
    await view.user.click(saveButton(dialog));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STALE_WRITE_MESSAGE);
    await view.user.click(within(alert).getByRole('button', { name: 'Save mine over it' }));
    await waitFor(() => expect(view.onSaved).toHaveBeenCalled());
    expect(api.sent('put', '/api/dentists/2').map((put) => put.ifMatch)).toEqual(['"2"', '"3"']);
  });

  it("another desk's change while open: the alert, and the typing stays", async () => {
    api.onGet('/api/dentists/2').reply(200, THEIRS);
    const view = renderForm();
    const dialog = await openWithLicense(view, 'DDS-9');
    events.emit({ resource: 'dentist', id: 2, action: 'updated', by: 5 });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(STALE_WRITE_MESSAGE);
    expect(within(dialog).getByLabelText('License Number')).toHaveValue('DDS-9');
  });
});
