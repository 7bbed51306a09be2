import { endTimeOf } from '@dental/shared';
import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  refusal,
  renderScreen,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import PatientsPage from './PatientsPage';

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
  nextAppointment: { id: 31, date: '2026-12-02', time: '10:00' },
  status: 'active',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};
const TOM = {
  ...MIA,
  id: 8,
  name: 'Tom Baker',
  email: null,
  phone: '555-0108',
  lastVisit: null,
  nextAppointment: null,
  status: 'inactive',
};

/** Mia as the list shows her: no medical history (only her own record has it). */
const { medicalHistory: _history, ...MIA_ROW } = MIA;

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
});
afterEach(() => api.restore());

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('PatientsPage (docs/product.md, Screens: Patients)', () => {
  it('lists the patients the server answers, with the columns of the spec', async () => {
    api.onGet('/api/patients').reply(200, pageOf([MIA, TOM], 2));
    renderScreen(<PatientsPage />, { url: '/patients' });

    expect(await screen.findByText('Mia Martin')).toBeInTheDocument();
    for (const column of ['Patient', 'Contact', 'Last Visit', 'Next Appointment', 'Status', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: new RegExp(column) })).toBeInTheDocument();
    }
    expect(within(row('Mia Martin')).getByText('555-0107')).toBeInTheDocument();
    expect(within(row('Mia Martin')).getByText('mia@example.com')).toBeInTheDocument();
    expect(within(row('Mia Martin')).getByText('active')).toBeInTheDocument();
    expect(within(row('Tom Baker')).getByText('No appointment')).toBeInTheDocument();
    expect(within(row('Tom Baker')).getByText('inactive')).toBeInTheDocument();
  });

  it('says when the server stopped counting: 1000+', async () => {
    api.onGet('/api/patients').reply(200, { ...pageOf([MIA, TOM], 1000), total_capped: true });
    renderScreen(<PatientsPage />, { url: '/patients?search=ma' });
    expect(await screen.findByText('1-20 of 1000+')).toBeInTheDocument();
  });

  it('reads search, status and page from the URL and asks the server for them', async () => {
    api.onGet('/api/patients').reply(200, pageOf([TOM], 41, 3));
    renderScreen(<PatientsPage />, { url: '/patients?search=tom&status=inactive&page=3' });
    expect(await screen.findByText('Tom Baker')).toBeInTheDocument();
    expect(api.lastParams('/api/patients')).toMatchObject({
      search: 'tom',
      status: 'inactive',
      page: 3,
      limit: 20,
    });
    expect(screen.getByRole('searchbox', { name: 'Search patients' })).toHaveValue('tom');
  });

  it('asks the next page after the cursor the page before gave, and a page jumped to by its number', async () => {
    api.onGet('/api/patients').reply((config) => {
      const page = Number(config.params.page);
      const rows = page === 1 ? pageOf([MIA], 60, page, 20) : pageOf([TOM], 60, page, 20);
      return [200, { ...rows, next_cursor: `${page},Cursor` }];
    });
    const view = renderScreen(<PatientsPage />, { url: '/patients' });
    await screen.findByText('Mia Martin');

    await view.user.click(screen.getByTitle('3'));
    await screen.findByText('Tom Baker');
    expect(api.lastParams('/api/patients')).toMatchObject({ page: 3 });
    expect(api.lastParams('/api/patients')).not.toHaveProperty('after');

    await view.user.click(screen.getByTitle('2'));
    await waitFor(() => expect(api.lastParams('/api/patients')).toMatchObject({ page: 2 }));
    expect(api.lastParams('/api/patients')).toMatchObject({ after: '1,Cursor' });
  });

  it('a status filter goes into the URL and back to page 1', async () => {
    api.onGet('/api/patients').reply(200, pageOf([MIA], 1));
    const view = renderScreen(<PatientsPage />, { url: '/patients?page=2' });
    await screen.findByText('Mia Martin');
    await view.user.click(screen.getByRole('combobox', { name: 'Status' }));
    await view.user.click(await screen.findByTitle('inactive'));
    await waitFor(() => expect(view.currentParams().get('status')).toBe('inactive'));
    expect(view.currentParams().get('page')).toBeNull();
    await waitFor(() =>
      expect(api.lastParams('/api/patients')).toMatchObject({ status: 'inactive', page: 1 }),
    );
  });

  it('shows a failed load in the red banner with Retry', async () => {
    api.onGet('/api/patients').replyOnce(500, refusal('Database unavailable'));
    api.onGet('/api/patients').reply(200, pageOf([MIA], 1));
    const view = renderScreen(<PatientsPage />, { url: '/patients' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
    // Nothing was read, so the list does not claim the clinic has no patients.
    expect(screen.queryByText('No patients yet')).not.toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Mia Martin')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('Add New Patient checks the fields with the shared rules before anything is sent', async () => {
    api.onGet('/api/patients').reply(200, pageOf([], 0));
    const view = renderScreen(<PatientsPage />, { url: '/patients' });
    await view.user.click(screen.getByRole('button', { name: 'Add New Patient' }));
    const dialog = await findDialog('Add New Patient');
    await view.user.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    await view.user.type(within(dialog).getByLabelText('Date of Birth'), '2999-01-01');
    await view.user.click(within(dialog).getByRole('button', { name: 'Add Patient' }));
    expect(await within(dialog).findByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(await within(dialog).findByText('The date of birth cannot be in the future')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(2));
    expect(api.sent('post')).toHaveLength(0);
  });

  it('a new patient is sent to the server; its refusal lands beside the field named', async () => {
    api.onGet('/api/patients').reply(200, pageOf([], 0));
    api
      .onPost('/api/patients')
      .replyOnce(400, refusal('Validation failed', [{ field: 'phone', message: 'This phone is taken' }]));
    api.onPost('/api/patients').reply(201, { ...MIA, id: 9 });
    const view = renderScreen(<PatientsPage />, { url: '/patients' });
    await view.user.click(screen.getByRole('button', { name: 'Add New Patient' }));
    const dialog = await findDialog('Add New Patient');
    await view.user.type(within(dialog).getByLabelText('Full Name'), 'Mia Martin');
    await view.user.type(within(dialog).getByLabelText('Email'), 'mia@example.com');
    await view.user.type(within(dialog).getByLabelText('Phone'), '555-0107');
    await view.user.type(within(dialog).getByLabelText('Date of Birth'), '1990-04-12');
    await view.user.click(within(dialog).getByRole('button', { name: 'Add Patient' }));
    expect(await within(dialog).findByText('This phone is taken')).toBeInTheDocument();

    await view.user.click(within(dialog).getByRole('button', { name: 'Add Patient' }));
    await waitFor(() => expect(api.sent('post')).toHaveLength(2));
    expect(api.sent('post')[1]?.body).toMatchObject({
      name: 'Mia Martin',
      email: 'mia@example.com',
      phone: '555-0107',
      dateOfBirth: '1990-04-12',
    });
    expect(await screen.findByText('Mia Martin was added')).toBeInTheDocument();
  });

  it("Edit reads the patient's own record, opens the form prefilled and saves the status too", async () => {
    api.onGet('/api/patients').reply(200, pageOf([MIA_ROW], 1));
    api.onGet('/api/patients/7').reply(200, MIA);
    api.onPut('/api/patients/7').reply(200, { ...MIA, status: 'inactive' });
    const view = renderScreen(<PatientsPage />, { url: '/patients' });
    await view.user.click(await screen.findByRole('button', { name: 'Edit Mia Martin' }));
    const dialog = await findDialog('Edit Patient');
    expect(within(dialog).getByLabelText('Full Name')).toHaveValue('Mia Martin');
    expect(within(dialog).getByLabelText('Medical History')).toHaveValue('Penicillin allergy');
    await view.user.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    await view.user.click(await screen.findByTitle('inactive'));
    await view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    expect(api.sent('put')[0]?.body).toMatchObject({ name: 'Mia Martin', status: 'inactive' });
  });

  it("Edit says why when the patient's record cannot be read, and opens no form", async () => {
    api.onGet('/api/patients').reply(200, pageOf([MIA_ROW], 1));
    api.onGet('/api/patients/7').reply(404, refusal('Patient not found'));
    const view = renderScreen(<PatientsPage />, { url: '/patients' });
    await view.user.click(await screen.findByRole('button', { name: 'Edit Mia Martin' }));
    expect(await screen.findByText('Patient not found')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Edit Patient' })).not.toBeInTheDocument();
  });

  it("Edit spins while the patient's record is read, and opens the form once it comes", async () => {
    api.onGet('/api/patients').reply(200, pageOf([MIA_ROW], 1));
    let answer: (reply: [number, unknown]) => void = () => undefined;
    api.onGet('/api/patients/7').reply(() => new Promise((resolve) => (answer = resolve)));
    const view = renderScreen(<PatientsPage />, { url: '/patients' });
    const edit = await screen.findByRole('button', { name: 'Edit Mia Martin' });
    await view.user.click(edit);
    expect(await within(edit).findByRole('img', { name: 'loading' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Edit Patient' })).not.toBeInTheDocument();
    answer([200, MIA]);
    const dialog = await findDialog('Edit Patient');
    expect(within(dialog).getByLabelText('Medical History')).toHaveValue('Penicillin allergy');
    expect(within(edit).queryByRole('img', { name: 'loading' })).not.toBeInTheDocument();
  });

  it('Delete asks first, then shows the server refusal in the banner', async () => {
    api.onGet('/api/patients').reply(200, pageOf([MIA], 1));
    api.onDelete('/api/patients/7').reply(409, refusal('Mia Martin has appointments; cancel them first'));
    const view = renderScreen(<PatientsPage />, { url: '/patients' });
    await view.user.click(await screen.findByRole('button', { name: 'Delete Mia Martin' }));
    expect(await screen.findByText(/Are you sure you want to delete Mia Martin\?/)).toBeInTheDocument();
    expect(api.sent('delete')).toHaveLength(0);
    await view.user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Mia Martin has appointments; cancel them first')).toBeInTheDocument();
    expect(screen.getByText('Mia Martin')).toBeInTheDocument();
  });

  it("a patient's details open from the URL with their appointments and a way to book", async () => {
    api.onGet('/api/patients').reply(200, pageOf([MIA], 1));
    api.onGet('/api/patients/7').reply(200, MIA);
    api.onGet('/api/patients/7/appointments').reply(
      200,
      pageOf([
        {
          id: 31,
          patient: 'Mia Martin',
          patient_id: 7,
          phone: '555-0107',
          dentist_id: 1,
          dentist_name: 'Dr. Sarah Johnson',
          date: '2026-12-02',
          time: '10:00',
          duration: 90,
          end_time: endTimeOf('10:00', 90),
          treatment: 'Root Canal',
          status: 'pending',
          notes: null,
          outside_hours: false,
          outside_hours_reason: null,
          overlapping: false,
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
        },
        {
          id: 30,
          patient: 'Mia Martin',
          patient_id: 7,
          phone: '555-0107',
          dentist_id: 1,
          dentist_name: 'Dr. Sarah Johnson',
          date: '2026-10-01',
          time: '18:30',
          duration: 60,
          end_time: endTimeOf('18:30', 60),
          treatment: 'Tooth Extraction',
          status: 'completed',
          notes: null,
          outside_hours: true,
          outside_hours_reason: 'Broken tooth, in pain',
          overlapping: false,
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
        },
      ]),
    );
    const view = renderScreen(<PatientsPage />, { url: '/patients?patient=7', route: '*' });
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('Penicillin allergy')).toBeInTheDocument();
    expect(within(drawer).getByText('Leo Martin 555-0199')).toBeInTheDocument();
    expect(await within(drawer).findByText(/Root Canal with Dr. Sarah Johnson/)).toBeInTheDocument();
    // Each visit shows when it starts and when it ends.
    const visits = within(drawer).getAllByRole('listitem');
    expect(visits[0]).toHaveTextContent('10:00–11:30');
    expect(within(visits[0] as HTMLElement).queryByText('Outside hours')).not.toBeInTheDocument();
    // A visit booked outside open hours says so, and why.
    expect(visits[1]).toHaveTextContent('18:30–19:30');
    const outside = within(visits[1] as HTMLElement).getByText('Outside hours');
    expect(outside.className).toMatch(/purple/);
    expect(outside).toHaveTextContent('Outside hours: Broken tooth, in pain');
    await view.user.hover(outside);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Broken tooth, in pain');
    await view.user.click(within(drawer).getByRole('button', { name: 'Book appointment' }));
    expect(view.currentUrl()).toBe('/appointments?new=1&patient=7');
  });
});
