import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  refusal,
  renderScreen,
  staffMember,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import UsersPage from './UsersPage';

function account(id: number, name: string, role: string, overrides: Record<string, unknown> = {}) {
  const username = name.split(' ')[0]?.toLowerCase() ?? 'user';
  return {
    id,
    username,
    email: `${username}@clinic.example`,
    name,
    role,
    is_active: true,
    last_login: null,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    dentist_id: null,
    clinic_id: 1,
    clinic_name: 'Bright Smile Dental',
    version: 1,
    ...overrides,
  };
}
const ALEX = account(1, 'Alex Morgan', 'admin', { last_login: '2026-11-20T09:30:00Z' });
const RILEY = account(2, 'Riley Chen', 'receptionist');
const SARAH = account(3, 'Sarah Johnson', 'dentist', { dentist_id: 7, is_active: false });
const admin = staffMember('admin', { id: 1 });

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/dentists').reply(
    200,
    pageOf([
      { id: 7, name: 'Dr. Sarah Johnson' },
      { id: 8, name: 'Dr. Omar Reyes' },
    ]),
  );
});
afterEach(() => api.restore());

const rowOf = (name: string) => within(screen.getByText(name).closest('tr') as HTMLElement);

describe('UsersPage (docs/product.md, Screens: Users)', () => {
  it('shows each user with e-mail and username, a role badge, status and last login or Never', async () => {
    api.onGet('/api/users').reply(200, pageOf([ALEX, RILEY, SARAH]));
    renderScreen(<UsersPage />, { url: '/users', staff: admin });
    expect(await screen.findByText('Riley Chen')).toBeInTheDocument();
    const riley = rowOf('Riley Chen');
    expect(riley.getByText('riley@clinic.example')).toBeInTheDocument();
    expect(riley.getByText('@riley')).toBeInTheDocument();
    expect(riley.getByText('Receptionist')).toBeInTheDocument();
    expect(riley.getByText('Active')).toBeInTheDocument();
    expect(riley.getByText('Never')).toBeInTheDocument();
    expect(rowOf('Alex Morgan').queryByText('Never')).not.toBeInTheDocument();
    expect(rowOf('Alex Morgan').getByText('You')).toBeInTheDocument();
    expect(rowOf('Sarah Johnson').getByText('Inactive')).toBeInTheDocument();
    expect(
      rowOf('Sarah Johnson').getByRole('button', { name: 'Activate Sarah Johnson' }),
    ).toBeInTheDocument();
  });

  it('a failed load shows the banner with Retry, and no claim that there are no users', async () => {
    api.onGet('/api/users').replyOnce(500, refusal('Database unavailable'));
    api.onGet('/api/users').reply(200, pageOf([RILEY]));
    const view = renderScreen(<UsersPage />, { url: '/users', staff: admin });
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
    expect(screen.queryByText('No users yet')).not.toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Riley Chen')).toBeInTheDocument();
  });

  it('reads search, role and status from the URL and asks the server for them', async () => {
    api.onGet('/api/users').reply(200, pageOf([RILEY]));
    renderScreen(<UsersPage />, { url: '/users?search=ril&role=receptionist&status=active', staff: admin });
    await screen.findByText('Riley Chen');
    expect(api.lastParams('/api/users')).toMatchObject({
      search: 'ril',
      role: 'receptionist',
      status: 'active',
    });
    expect(screen.getByRole('searchbox', { name: 'Search users' })).toHaveValue('ril');
  });

  it('Add New User checks every field before sending, and shows the server’s refusal beside its field', async () => {
    api.onGet('/api/users').reply(200, pageOf([ALEX]));
    api
      .onPost('/api/users')
      .replyOnce(
        400,
        refusal('Invalid password: This password is among the most common passwords: choose another', [
          { field: 'password', message: 'This password is among the most common passwords: choose another' },
        ]),
      );
    api.onPost('/api/users').reply(201, account(9, 'Dana Lee', 'dentist', { dentist_id: 8 }));
    const view = renderScreen(<UsersPage />, { url: '/users', staff: admin });
    await screen.findByText('Alex Morgan');
    await view.user.click(screen.getByRole('button', { name: 'Add New User' }));
    const dialog = await findDialog('Add New User');
    await view.user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    // Name, username, e-mail and password.
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(4));
    expect(api.sent('post')).toHaveLength(0);

    await view.user.type(within(dialog).getByLabelText('Full Name'), 'Dana Lee');
    await view.user.type(within(dialog).getByLabelText('Username'), 'dana');
    await view.user.type(within(dialog).getByLabelText('Email'), 'dana@clinic.example');
    const password = within(dialog).getByLabelText('Password');
    await view.user.type(password, 'password1');
    expect(password).toHaveAttribute('type', 'password');
    await view.user.click(within(dialog).getByRole('button', { name: 'Show Password' }));
    expect(password).toHaveAttribute('type', 'text');
    await view.user.click(within(dialog).getByRole('button', { name: 'Hide Password' }));
    expect(password).toHaveAttribute('type', 'password');
    await view.user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await view.user.click(await screen.findByTitle('Dentist'));
    await view.user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await within(dialog).findByText('Choose the dentist this account belongs to')).toBeInTheDocument();
    await view.user.click(within(dialog).getByRole('combobox', { name: 'Dentist record' }));
    await view.user.click(await screen.findByTitle('Dr. Omar Reyes'));
    await view.user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(
      await within(dialog).findByText('This password is among the most common passwords: choose another'),
    ).toBeInTheDocument();

    await view.user.clear(password);
    await view.user.type(password, 'a-good-long-secret');
    await view.user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await screen.findByText('Dana Lee was added')).toBeInTheDocument();
    expect(api.sent('post')[1]?.body).toEqual({
      name: 'Dana Lee',
      username: 'dana',
      email: 'dana@clinic.example',
      password: 'a-good-long-secret',
      role: 'dentist',
      isActive: true,
      dentist_id: 8,
    });
  });

  it('Edit keeps the password when left blank', async () => {
    api.onGet('/api/users').reply(200, pageOf([RILEY]));
    api.onPut('/api/users/2').reply(200, { ...RILEY, name: 'Riley Chen-Park' });
    const view = renderScreen(<UsersPage />, { url: '/users', staff: admin });
    await screen.findByText('Riley Chen');
    await view.user.click(screen.getByRole('button', { name: 'Edit Riley Chen' }));
    const dialog = await findDialog('Edit User');
    expect(within(dialog).getByLabelText('Password')).toHaveAttribute(
      'placeholder',
      'Leave blank to keep current',
    );
    const name = within(dialog).getByLabelText('Full Name');
    await view.user.clear(name);
    await view.user.type(name, 'Riley Chen-Park');
    await view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Riley Chen-Park was saved')).toBeInTheDocument();
    expect(api.sent('put')[0]?.body).toMatchObject({
      name: 'Riley Chen-Park',
      password: '',
      role: 'receptionist',
    });
  });

  it('Set password opens the user with the cursor in Password, and saves the new one', async () => {
    api.onGet('/api/users').reply(200, pageOf([RILEY]));
    api.onPut('/api/users/2').reply(200, RILEY);
    const view = renderScreen(<UsersPage />, { url: '/users', staff: admin });
    await screen.findByText('Riley Chen');
    await view.user.click(screen.getByRole('button', { name: 'Set password of Riley Chen' }));
    const dialog = await findDialog('Edit User');
    const password = within(dialog).getByLabelText('Password');
    await waitFor(() => expect(password).toHaveFocus());
    await view.user.keyboard('a-new-long-secret');
    await view.user.click(within(dialog).getByRole('button', { name: 'Show Password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(password).toHaveValue('a-new-long-secret');
    await view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Riley Chen was saved')).toBeInTheDocument();
    expect(api.sent('put')[0]?.body).toMatchObject({ name: 'Riley Chen', password: 'a-new-long-secret' });
  });

  it('deactivates a user, and Delete asks the spec’s question and shows the server’s refusal', async () => {
    api.onGet('/api/users').reply(200, pageOf([ALEX, RILEY]));
    api.onPatch('/api/users/2/status').reply(200, { ...RILEY, is_active: false });
    api.onDelete('/api/users/1').reply(409, refusal('You cannot delete your own account'));
    const view = renderScreen(<UsersPage />, { url: '/users', staff: admin });
    await screen.findByText('Riley Chen');
    await view.user.click(screen.getByRole('button', { name: 'Deactivate Riley Chen' }));
    expect(await screen.findByText('Riley Chen was deactivated')).toBeInTheDocument();
    expect(api.sent('patch')[0]?.body).toEqual({ isActive: false });

    await view.user.click(screen.getByRole('button', { name: 'Delete Alex Morgan' }));
    const confirm = await findDialog('Delete Alex Morgan?');
    expect(within(confirm).getByText('Are you sure you want to delete this user?')).toBeInTheDocument();
    await view.user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('You cannot delete your own account')).toBeInTheDocument();
  });
});
