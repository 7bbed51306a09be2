import { daysPerWeekOf, workingHoursOf } from '@dental/shared';
import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  refusal,
  renderScreen,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import DentistsPage, { LOAD_FAILURE } from './DentistsPage';

function dentist(id: number, name: string, workingDays: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    name,
    email: `${name.split(' ')[1]?.toLowerCase()}@clinic.example`,
    phone: '555-0101',
    specialty: 'Orthodontics',
    license: `DDS-${id}`,
    years_of_experience: 12,
    working_days: workingDays,
    status: 'active',
    working_hours: workingHoursOf(workingDays),
    days_per_week: daysPerWeekOf(workingDays),
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}
const SARAH = dentist(1, 'Dr. Sarah Johnson', '123456');
const OMAR = dentist(2, 'Dr. Omar Reyes', '135', { status: 'inactive', specialty: 'Endodontics' });

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
});
afterEach(() => api.restore());

const card = (name: string) => screen.getByText(name).closest('.dentist-card') as HTMLElement;

describe('DentistsPage (docs/product.md, Screens: Dentists)', () => {
  it('shows a card per dentist with every detail of the spec', async () => {
    api.onGet('/api/dentists').reply(200, pageOf([SARAH, OMAR], 2));
    renderScreen(<DentistsPage />, { url: '/dentists' });

    expect(await screen.findByText('Dr. Sarah Johnson')).toBeInTheDocument();
    const sarah = within(card('Dr. Sarah Johnson'));
    expect(sarah.getByText('Orthodontics')).toBeInTheDocument();
    expect(sarah.getByText('active')).toBeInTheDocument();
    expect(sarah.getByText('sarah@clinic.example')).toBeInTheDocument();
    expect(sarah.getByText('555-0101')).toBeInTheDocument();
    expect(sarah.getByText('License: DDS-1')).toBeInTheDocument();
    expect(sarah.getByText('Experience: 12 years')).toBeInTheDocument();
    expect(sarah.getByText('6 days/week')).toBeInTheDocument();
    expect(sarah.getByText(/Mon-Fri 09:00-17:00 · Sat 09:00-13:00/)).toBeInTheDocument();
    const omar = within(card('Dr. Omar Reyes'));
    expect(omar.getByText('inactive')).toBeInTheDocument();
    expect(omar.getByText('3 days/week')).toBeInTheDocument();
    expect(omar.getByText(/Mon 09:00-17:00 · Wed 09:00-17:00 · Fri 09:00-17:00/)).toBeInTheDocument();
  });

  it('reads search, status and specialization from the URL and asks the server for them', async () => {
    api.onGet('/api/dentists').reply(200, pageOf([OMAR], 1));
    renderScreen(<DentistsPage />, { url: '/dentists?search=omar&status=inactive&specialty=Endodontics' });
    expect(await screen.findByText('Dr. Omar Reyes')).toBeInTheDocument();
    expect(api.lastParams('/api/dentists')).toMatchObject({
      search: 'omar',
      status: 'inactive',
      specialty: 'Endodontics',
      page: 1,
    });
    expect(screen.getByRole('searchbox', { name: 'Search dentists' })).toHaveValue('omar');
  });

  it('a specialization chosen goes into the URL and to the server', async () => {
    api.onGet('/api/dentists').reply(200, pageOf([SARAH], 1));
    const view = renderScreen(<DentistsPage />, { url: '/dentists' });
    await screen.findByText('Dr. Sarah Johnson');
    await view.user.click(screen.getByRole('combobox', { name: 'Specialization' }));
    await view.user.click(await screen.findByTitle('Oral Surgery'));
    await waitFor(() => expect(view.currentParams().get('specialty')).toBe('Oral Surgery'));
    await waitFor(() => expect(api.lastParams('/api/dentists')).toMatchObject({ specialty: 'Oral Surgery' }));
  });

  it('a failed load says so and shows sample dentists, marked and without actions', async () => {
    api.onGet('/api/dentists').replyOnce(500, refusal('Database unavailable'));
    api.onGet('/api/dentists').reply(200, pageOf([SARAH], 1));
    const view = renderScreen(<DentistsPage />, { url: '/dentists' });
    expect(await screen.findByRole('alert')).toHaveTextContent(LOAD_FAILURE);
    expect(LOAD_FAILURE).toBe('Failed to load dentists data. Showing sample data.');
    expect(screen.getAllByText('Sample').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: /^Edit / })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete / })).not.toBeInTheDocument();

    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Dr. Sarah Johnson')).toBeInTheDocument();
    expect(screen.queryByText('Sample')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('Add New Dentist checks the required fields before anything is sent', async () => {
    api.onGet('/api/dentists').reply(200, pageOf([], 0));
    const view = renderScreen(<DentistsPage />, { url: '/dentists' });
    expect(await screen.findByText('No dentists yet')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Add New Dentist' }));
    const dialog = await findDialog('Add New Dentist');
    await view.user.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      await view.user.click(within(dialog).getByRole('checkbox', { name: day }));
    }
    await view.user.click(within(dialog).getByRole('button', { name: 'Add Dentist' }));
    expect(await within(dialog).findByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(await within(dialog).findByText('Choose at least one working day')).toBeInTheDocument();
    // Name, phone, specialization and license.
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(4));
    expect(api.sent('post')).toHaveLength(0);
  });

  it('a new dentist is sent with working days as day numbers; a refusal lands beside its field', async () => {
    api.onGet('/api/dentists').reply(200, pageOf([], 0));
    api
      .onPost('/api/dentists')
      .replyOnce(409, refusal('Validation failed', [{ field: 'license', message: 'This license is taken' }]));
    api.onPost('/api/dentists').reply(201, dentist(5, 'Dr. Ana Lima', '136'));
    const view = renderScreen(<DentistsPage />, { url: '/dentists' });
    await view.user.click(await screen.findByRole('button', { name: 'Add New Dentist' }));
    const dialog = await findDialog('Add New Dentist');
    await view.user.type(within(dialog).getByLabelText('Full Name'), 'Dr. Ana Lima');
    await view.user.type(within(dialog).getByLabelText('Email'), 'ana@clinic.example');
    await view.user.type(within(dialog).getByLabelText('Phone'), '555-0155');
    await view.user.click(within(dialog).getByRole('combobox', { name: 'Specialization' }));
    await view.user.click(await screen.findByTitle('Periodontics'));
    await view.user.type(within(dialog).getByLabelText('License Number'), 'DDS-5');
    await view.user.clear(within(dialog).getByLabelText('Experience (years)'));
    await view.user.type(within(dialog).getByLabelText('Experience (years)'), '7');
    // Monday to Friday are checked for a new dentist: keep Monday and Wednesday, add Saturday.
    for (const day of ['Tuesday', 'Thursday', 'Friday', 'Saturday']) {
      await view.user.click(within(dialog).getByRole('checkbox', { name: day }));
    }
    await view.user.click(within(dialog).getByRole('button', { name: 'Add Dentist' }));
    expect(await within(dialog).findByText('This license is taken')).toBeInTheDocument();

    await view.user.click(within(dialog).getByRole('button', { name: 'Add Dentist' }));
    await waitFor(() => expect(api.sent('post')).toHaveLength(2));
    expect(api.sent('post')[1]?.body).toEqual({
      name: 'Dr. Ana Lima',
      email: 'ana@clinic.example',
      phone: '555-0155',
      specialty: 'Periodontics',
      license: 'DDS-5',
      years_of_experience: 7,
      working_days: '136',
      status: 'active',
    });
    expect(await screen.findByText('Dr. Ana Lima was added')).toBeInTheDocument();
  });

  it('Edit opens the form prefilled and saves the status', async () => {
    api.onGet('/api/dentists').reply(200, pageOf([OMAR], 1));
    api.onPut('/api/dentists/2').reply(200, { ...OMAR, status: 'active' });
    const view = renderScreen(<DentistsPage />, { url: '/dentists' });
    await view.user.click(await screen.findByRole('button', { name: 'Edit Dr. Omar Reyes' }));
    const dialog = await findDialog('Edit Dentist');
    expect(within(dialog).getByLabelText('Full Name')).toHaveValue('Dr. Omar Reyes');
    expect(within(dialog).getByRole('checkbox', { name: 'Wednesday' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Tuesday' })).not.toBeChecked();
    await view.user.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    await view.user.click(await screen.findByTitle('active'));
    await view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    expect(api.sent('put')[0]?.body).toMatchObject({ working_days: '135', status: 'active' });
    expect(await screen.findByText('Dr. Omar Reyes was saved')).toBeInTheDocument();
  });

  it('Delete asks first, then shows the server refusal in the banner', async () => {
    api.onGet('/api/dentists').reply(200, pageOf([SARAH], 1));
    api
      .onDelete('/api/dentists/1')
      .reply(
        409,
        refusal(
          'This dentist has 3 appointments to come and cannot be deleted; move or cancel them, or set the dentist to inactive',
        ),
      );
    const view = renderScreen(<DentistsPage />, { url: '/dentists' });
    await view.user.click(await screen.findByRole('button', { name: 'Delete Dr. Sarah Johnson' }));
    expect(
      await screen.findByText(/Are you sure you want to delete Dr. Sarah Johnson\?/),
    ).toBeInTheDocument();
    expect(api.sent('delete')).toHaveLength(0);
    await view.user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/has 3 appointments to come and cannot be deleted/)).toBeInTheDocument();
    expect(screen.getByText('Dr. Sarah Johnson')).toBeInTheDocument();
  });
});
