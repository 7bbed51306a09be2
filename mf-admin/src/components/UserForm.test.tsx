import { GONE_MEANWHILE_MESSAGE, STALE_WRITE_MESSAGE, type WireUser } from '@dental/shared';
import {
  createFakeApi,
  createFakeLiveEvents,
  type FakeApi,
  type FakeLiveEvents,
  findDialog,
  pageOf,
  refusal,
  renderScreen,
  staffMember,
  staleWrite,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
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

describe("UserForm: the Sign-in section (an admin ends a user's sessions or resets their second step)", () => {
  /** The confirm dialog asking this question. */
  async function confirmDialog(question: string) {
    return within(await findDialog(question));
  }
  const section = (dialog: HTMLElement) => within(within(dialog).getByRole('region', { name: 'Sign-in' }));

  it("is not in 'Add New User': a new account has no sessions yet", async () => {
    renderScreen(<UserForm open user={null} onClose={() => {}} onSaved={() => {}} />, { events, staff: ME });
    const dialog = await findDialog('Add New User');
    expect(within(dialog).queryByRole('region', { name: 'Sign-in' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Sign out everywhere' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Reset two-step sign-in' })).not.toBeInTheDocument();
  });

  it('Sign out everywhere: asked first, then the DELETE is sent and the server says how many sessions ended', async () => {
    api
      .onDelete('/api/users/2/sessions')
      .reply(200, { message: 'Riley Chen was signed out of 3 sessions.', ended: 3 });
    const view = renderForm();
    const dialog = await findDialog('Edit User');
    await view.user.click(section(dialog).getByRole('button', { name: 'Sign out everywhere' }));

    const confirm = await confirmDialog('Sign Riley Chen out everywhere?');
    expect(confirm.getByText(/must sign in again/)).toBeInTheDocument();
    expect(api.sent('delete')).toHaveLength(0);
    await view.user.click(confirm.getByRole('button', { name: 'Sign out everywhere' }));

    expect(await section(dialog).findByRole('status')).toHaveTextContent(
      'Riley Chen was signed out of 3 sessions.',
    );
    expect(api.sent('delete', '/api/users/2/sessions')).toHaveLength(1);
    // Nothing else was sent: the form's edits are not saved by it.
    expect(api.sent('put')).toHaveLength(0);
    expect(view.onSaved).not.toHaveBeenCalled();
  });

  it('Reset two-step sign-in: asked first (saying they are signed out too), then the DELETE and the message', async () => {
    api
      .onDelete('/api/users/2/mfa')
      .reply(200, { message: "Riley Chen's two-step sign-in was reset; they were signed out." });
    const view = renderForm();
    const dialog = await findDialog('Edit User');
    await view.user.click(section(dialog).getByRole('button', { name: 'Reset two-step sign-in' }));

    const confirm = await confirmDialog("Reset Riley Chen's two-step sign-in?");
    expect(
      confirm.getByText(/recovery codes are removed and they are signed out everywhere/),
    ).toBeInTheDocument();
    await view.user.click(confirm.getByRole('button', { name: 'Reset two-step sign-in' }));

    expect(await section(dialog).findByRole('status')).toHaveTextContent(
      "Riley Chen's two-step sign-in was reset; they were signed out.",
    );
    expect(api.sent('delete', '/api/users/2/mfa')).toHaveLength(1);
    expect(api.sent('delete', '/api/users/2/sessions')).toHaveLength(0);
  });

  it('Cancel in the question sends nothing', async () => {
    const view = renderForm();
    const dialog = await findDialog('Edit User');
    await view.user.click(section(dialog).getByRole('button', { name: 'Reset two-step sign-in' }));
    const confirm = await confirmDialog("Reset Riley Chen's two-step sign-in?");
    await view.user.click(confirm.getByRole('button', { name: 'Cancel' }));

    await waitFor(() =>
      expect(screen.queryByText("Reset Riley Chen's two-step sign-in?")).not.toBeInTheDocument(),
    );
    expect(api.sent('delete')).toHaveLength(0);
    expect(section(dialog).queryByRole('status')).not.toBeInTheDocument();
  });

  it("a refusal shows the server's message in the section", async () => {
    api.onDelete('/api/users/2/sessions').reply(404, refusal('User not found'));
    const view = renderForm();
    const dialog = await findDialog('Edit User');
    await view.user.click(section(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    const confirm = await confirmDialog('Sign Riley Chen out everywhere?');
    await view.user.click(confirm.getByRole('button', { name: 'Sign out everywhere' }));

    expect(await section(dialog).findByRole('alert')).toHaveTextContent('User not found');
    expect(section(dialog).queryByRole('status')).not.toBeInTheDocument();
  });

  it('on their own account, the question says this session ends too', async () => {
    const view = renderScreen(
      <UserForm open user={{ ...RILEY, id: 1 }} onClose={() => {}} onSaved={() => {}} />,
      { events, staff: ME },
    );
    const dialog = await findDialog('Edit User');
    await view.user.click(section(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    const confirm = await confirmDialog('Sign Riley Chen out everywhere?');
    expect(confirm.getByText(/you will be signed out here too/)).toBeInTheDocument();
  });
});
