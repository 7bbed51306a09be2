import { GONE_MEANWHILE_MESSAGE, STALE_WRITE_MESSAGE, type WireUser } from '@dental/shared';
import {
  createFakeApi,
  createFakeLiveEvents,
  type FakeApi,
  type FakeLiveEvents,
  findDialog,
  pageOf,
  renderScreen,
  staffMember,
  staleWrite,
} from '@dental/shared/testing';
import { waitFor, within } from '@testing-library/react';
import { UserForm } from './UserForm';

/** Riley's account as this desk opened it. */
const RILEY: WireUser = {
  id: 2,
  username: 'riley',
  email: 'riley@clinic.example',
  name: 'Riley Chen',
  role: 'receptionist',
  is_active: true,
  last_login: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  dentist_id: null,
  clinic_id: 1,
  clinic_name: 'Bright Smile Dental',
  version: 4,
};
/** The account as another admin saved it meanwhile. */
const THEIRS: WireUser = { ...RILEY, email: 'riley.chen@clinic.example', name: 'Riley A. Chen', version: 5 };
const ME = staffMember('admin', { id: 1 });
const OTHER_DESK = 9;

let api: FakeApi;
let events: FakeLiveEvents;
beforeEach(() => {
  api = createFakeApi();
  events = createFakeLiveEvents();
  api.onGet('/api/dentists').reply(200, pageOf([{ id: 7, name: 'Dr. Sarah Johnson' }]));
});
afterEach(() => api.restore());

function renderForm() {
  const onSaved = jest.fn();
  const view = renderScreen(<UserForm open user={RILEY} onClose={() => {}} onSaved={onSaved} />, {
    events,
    staff: ME,
  });
  return { ...view, onSaved };
}

async function openWithName(view: ReturnType<typeof renderForm>, name: string) {
  const dialog = await findDialog('Edit User');
  const field = within(dialog).getByLabelText('Full Name');
  await waitFor(() => expect(field).toHaveValue('Riley Chen'));
  await view.user.clear(field);
  await view.user.type(field, name);
  return dialog;
}

const saveButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Save Changes' });

describe('UserForm: no edit is silently lost', () => {
  it('saves with If-Match naming the version it showed', async () => {
    api.onPut('/api/users/2').reply(200, { ...RILEY, name: 'Riley Q. Chen', version: 5 });
    const view = renderForm();
    const dialog = await openWithName(view, 'Riley Q. Chen');
    await view.user.click(saveButton(dialog));

    await waitFor(() => expect(view.onSaved).toHaveBeenCalled());
    const [put] = api.sent('put', '/api/users/2');
    expect(put?.ifMatch).toBe('"4"');
    expect(put?.body).toMatchObject({ name: 'Riley Q. Chen', email: 'riley@clinic.example' });
  });

  it('a stale Save (412): Load theirs fills their version', async () => {
    api.onPut('/api/users/2').reply(412, staleWrite(THEIRS));
    const view = renderForm();
    const dialog = await openWithName(view, 'Riley Q. Chen');
    await view.user.click(saveButton(dialog));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STALE_WRITE_MESSAGE);
    expect(within(dialog).getByLabelText('Full Name')).toHaveValue('Riley Q. Chen');
    await view.user.click(within(alert).getByRole('button', { name: 'Load theirs' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Full Name')).toHaveValue('Riley A. Chen'));
    expect(within(dialog).getByLabelText('Email')).toHaveValue('riley.chen@clinic.example');
    expect(view.onSaved).not.toHaveBeenCalled();
  });

  it('a stale Save (412): Save mine over it re-sends with the newer tag', async () => {
    api.onPut('/api/users/2').replyOnce(412, staleWrite(THEIRS));
    api.onPut('/api/users/2').replyOnce(200, { ...THEIRS, name: 'Riley Q. Chen', version: 6 });
    const view = renderForm();
    const dialog = await openWithName(view, 'Riley Q. Chen');
    await view.user.click(saveButton(dialog));
    const alert = await within(dialog).findByRole('alert');
    await view.user.click(within(alert).getByRole('button', { name: 'Save mine over it' }));

    await waitFor(() => expect(view.onSaved).toHaveBeenCalled());
    const puts = api.sent('put', '/api/users/2');
    expect(puts.map((put) => put.ifMatch)).toEqual(['"4"', '"5"']);
    expect(puts[1]?.body).toMatchObject({ name: 'Riley Q. Chen' });
  });

  it("another admin's change while open shows the alert and keeps what was typed; Load theirs reads it afresh", async () => {
    api.onGet('/api/users/2').reply(200, THEIRS);
    const view = renderForm();
    const dialog = await openWithName(view, 'Riley Q. Chen');

    events.emit({ resource: 'user', id: 2, action: 'updated', by: OTHER_DESK });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STALE_WRITE_MESSAGE);
    expect(within(dialog).getByLabelText('Full Name')).toHaveValue('Riley Q. Chen');
    await view.user.click(within(alert).getByRole('button', { name: 'Load theirs' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Full Name')).toHaveValue('Riley A. Chen'));
    // Read when the event came, and again for Load theirs.
    expect(api.sent('get', '/api/users/2')).toHaveLength(2);
  });

  it('an account deleted at another desk: the alert says so and Save is disabled', async () => {
    const view = renderForm();
    const dialog = await openWithName(view, 'Riley Q. Chen');
    events.emit({ resource: 'user', id: 2, action: 'deleted', by: OTHER_DESK });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(GONE_MEANWHILE_MESSAGE);
    expect(saveButton(dialog)).toBeDisabled();
    expect(within(dialog).getByLabelText('Full Name')).toHaveValue('Riley Q. Chen');
  });
});
