import { todayDay } from '@dental/shared/kit';
import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  refusal,
  renderScreen,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { dayBefore } from '../components/AppointmentFilters';
import { ANA_VISIT, CHAIRS, MIA, MIA_VISIT, MICHAEL, SARAH, SETTINGS, TOM_VISIT } from '../testing/fixtures';
import AppointmentsPage from './AppointmentsPage';

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/dentists').reply(200, pageOf([SARAH, MICHAEL]));
  api.onGet('/api/chairs').reply(200, { data: CHAIRS });
  api.onGet('/api/settings').reply(200, SETTINGS);
  api.onGet('/api/appointments/overlapping').reply(200, { data: [], total: 0 });
});
afterEach(() => api.restore());

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
/** A control named by its aria-label (a lookup by label is far cheaper than by role in antd's tree). */
const button = (name: string) => screen.getByLabelText(name);
/** The button showing this text, in the open dialog when one is (a tooltip may repeat the text). */
const textButton = (text: string) => {
  const buttons = screen.getAllByText(text).map((element) => element.closest('button'));
  const found = buttons.find((candidate) => candidate?.closest('.ant-modal-wrap')) ?? buttons.find(Boolean);
  if (!found) throw new Error(`No button '${text}'`);
  return found;
};
/** The screen's own select of this name (the form's, in its hidden dialog, may share the name). */
const combobox = (name: string) =>
  screen
    .getAllByLabelText(name)
    .find(
      (element) => element.getAttribute('role') === 'combobox' && !element.closest('.ant-modal-wrap'),
    ) as HTMLElement;
/** The options of the open antd Select, by their titles. */
const optionTitles = () =>
  Array.from(
    document.querySelectorAll(
      '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
    ),
  ).map((option) => option.getAttribute('title'));
const today = todayDay();

describe('AppointmentsPage (docs/product.md, Screens: Appointments)', () => {
  it('lists the appointments from today on, in date order, with the columns of the spec', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([MIA_VISIT, TOM_VISIT], 2));
    renderScreen(<AppointmentsPage />, { url: '/appointments' });

    expect(await screen.findByText('Mia Martin')).toBeInTheDocument();
    expect(screen.getByText('Appointments', { selector: 'h1' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Patient',
      'Dentist',
      'Date & Time',
      'Treatment',
      'Status',
      'Actions',
    ]);
    const mia = within(row('Mia Martin'));
    expect(mia.getByText('555-0107')).toBeInTheDocument();
    expect(mia.getByText('Dr. Michael Chen')).toBeInTheDocument();
    expect(mia.getByText('ID: 2')).toBeInTheDocument();
    expect(mia.getByText('10:00–11:30')).toBeInTheDocument();
    expect(mia.getByText('Root Canal')).toBeInTheDocument();
    expect(mia.getByText('Sensitive upper left molar')).toBeInTheDocument();
    expect(mia.getByText('pending')).toHaveClass('ant-tag-gold');
    expect(within(row('Tom Baker')).getByText('confirmed')).toHaveClass('ant-tag-green');

    const params = api.lastParams('/api/appointments');
    expect(params).toMatchObject({ from: today, sort: 'date', page: 1, limit: 20 });
    expect(params?.to).toBeUndefined();
    expect(screen.getByPlaceholderText('Search appointments...')).toBeInTheDocument();
  });

  it('lists visits kept overlapping from before, marks them and those booked outside hours, and opens one', async () => {
    const first = { ...MIA_VISIT, overlapping: true };
    const second = {
      ...TOM_VISIT,
      date: MIA_VISIT.date,
      time: '10:30',
      end_time: '11:00',
      overlapping: true,
    };
    const late = { ...ANA_VISIT, outside_hours: true, outside_hours_reason: 'Broken tooth' };
    api.onGet('/api/appointments').reply(200, pageOf([first, second, late], 3));
    api.onGet('/api/appointments/overlapping').reply(200, { data: [first, second], total: 2 });
    api.onGet(/\/api\/dentists\/\d+\/free-times/).reply(200, {
      date: MIA_VISIT.date,
      duration: 90,
      times: [],
      open: [],
      reason: 'fully_booked',
      message: 'Fully booked',
    });
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    expect(
      await screen.findByText('2 visits overlap another visit of its dentist or patient'),
    ).toBeInTheDocument();
    const listed = within(screen.getByRole('list', { name: 'Overlapping visits' }));
    expect(listed.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringMatching(/10:00–11:30, Mia Martin with Dr. Michael Chen$/),
      expect.stringMatching(/10:30–11:00, Tom Baker with/),
    ]);
    expect(within(row('Mia Martin')).getByText('Overlaps')).toBeInTheDocument();
    expect(within(row('Ana Diaz')).getByText('Outside hours')).toBeInTheDocument();
    await view.user.click(listed.getByText(/Mia Martin with/));
    const dialog = await findDialog('Edit Appointment');
    expect(within(dialog).getByLabelText('Patient Name')).toHaveValue('Mia Martin');
  });

  it('search, status, dentist and sort come from the URL, go into it and into the query', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([MIA_VISIT], 1));
    const view = renderScreen(<AppointmentsPage />, {
      url: '/appointments?search=mia&status=pending&dentist=2&page=2',
    });
    await screen.findByText('Mia Martin');
    expect(api.lastParams('/api/appointments')).toMatchObject({
      search: 'mia',
      status: 'pending',
      dentist_id: 2,
      page: 2,
    });
    expect(screen.getByLabelText('Search appointments')).toHaveValue('mia');

    await view.user.click(combobox('Status'));
    await waitFor(() =>
      expect(optionTitles()).toEqual(['All', 'confirmed', 'pending', 'cancelled', 'completed']),
    );
    await view.user.click(await screen.findByTitle('confirmed'));
    await waitFor(() => expect(view.currentParams().get('status')).toBe('confirmed'));
    expect(view.currentParams().get('page')).toBeNull();

    await view.user.click(combobox('Dentist'));
    await view.user.click(await screen.findByTitle('Dr. Sarah Johnson'));
    await waitFor(() => expect(view.currentParams().get('dentist')).toBe('1'));

    await view.user.click(screen.getByText('Patient', { selector: 'th *' }));
    await waitFor(() => expect(view.currentParams().get('sort')).toBe('patient'));
    await waitFor(() =>
      expect(api.lastParams('/api/appointments')).toMatchObject({
        status: 'confirmed',
        dentist_id: 1,
        sort: 'patient',
        page: 1,
      }),
    );
  });

  it('asks the next page after the cursor the page before gave, and a page jumped to by its number', async () => {
    api.onGet('/api/appointments').reply((config) => {
      const page = Number(config.params.page);
      const rows = page === 1 ? [MIA_VISIT] : [TOM_VISIT];
      return [200, { ...pageOf(rows, 60, page, 20), next_cursor: `cursor-of-page-${page}` }];
    });
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await screen.findByText('Mia Martin');

    await view.user.click(screen.getByTitle('3'));
    await screen.findByText('Tom Baker');
    expect(api.lastParams('/api/appointments')).toMatchObject({ page: 3 });
    expect(api.lastParams('/api/appointments')).not.toHaveProperty('after');

    await view.user.click(screen.getByTitle('2'));
    await waitFor(() => expect(api.lastParams('/api/appointments')).toMatchObject({ page: 2 }));
    expect(api.lastParams('/api/appointments')).toMatchObject({ after: 'cursor-of-page-1' });
  });

  it('the Filter button opens the date range: Past, All dates and a from/to range', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([MIA_VISIT], 1));
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await screen.findByText('Mia Martin');
    const filter = textButton('Filter');
    expect(filter).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByLabelText('From')).not.toBeInTheDocument();

    await view.user.click(filter);
    expect(filter).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByLabelText('From')).toHaveValue(today);

    await view.user.click(screen.getByText('Past'));
    await waitFor(() => expect(view.currentParams().get('dates')).toBe('past'));
    expect(view.currentParams().get('sort')).toBe('-date');
    await waitFor(() => expect(api.lastParams('/api/appointments')).toMatchObject({ to: dayBefore(today) }));
    expect(api.lastParams('/api/appointments')?.from).toBeUndefined();

    await view.user.click(screen.getByText('All dates'));
    await waitFor(() => expect(view.currentParams().get('dates')).toBe('all'));
    await waitFor(() => {
      const params = api.lastParams('/api/appointments');
      expect(params?.from).toBeUndefined();
      expect(params?.to).toBeUndefined();
    });

    await view.user.type(screen.getByLabelText('From'), '2099-01-01');
    await view.user.type(screen.getByLabelText('To'), '2099-01-31');
    await waitFor(() => expect(view.currentParams().get('to')).toBe('2099-01-31'));
    expect(view.currentParams().get('from')).toBe('2099-01-01');
    expect(view.currentParams().get('dates')).toBeNull();
    await waitFor(() =>
      expect(api.lastParams('/api/appointments')).toMatchObject({ from: '2099-01-01', to: '2099-01-31' }),
    );
    expect(screen.getByText(/Appointments from .* to /)).toBeInTheDocument();
  });

  it('Confirm is off when confirmed, Cancel when cancelled, Complete when cancelled, completed or still to come', async () => {
    api
      .onGet('/api/appointments')
      .reply(
        200,
        pageOf([
          { ...MIA_VISIT, date: todayDay() },
          TOM_VISIT,
          ANA_VISIT,
          { ...MIA_VISIT, id: 34, patient: 'Lee Done', status: 'completed' },
          { ...MIA_VISIT, id: 35, patient: 'Zed Later' },
        ]),
      );
    renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await screen.findByText('Mia Martin');

    expect(button('Confirm appointment of Mia Martin')).toBeEnabled();
    expect(button('Cancel appointment of Mia Martin')).toBeEnabled();
    expect(button('Complete appointment of Mia Martin')).toBeEnabled();
    expect(button('Edit appointment of Mia Martin')).toBeEnabled();
    expect(button('Delete appointment of Mia Martin')).toBeEnabled();

    expect(button('Confirm appointment of Tom Baker')).toBeDisabled();
    expect(button('Cancel appointment of Tom Baker')).toBeEnabled();

    expect(button('Confirm appointment of Ana Diaz')).toBeEnabled();
    expect(button('Cancel appointment of Ana Diaz')).toBeDisabled();
    expect(button('Complete appointment of Ana Diaz')).toBeDisabled();

    expect(button('Complete appointment of Lee Done')).toBeDisabled();
    expect(button('Cancel appointment of Lee Done')).toBeEnabled();

    // A visit on a day still to come has not taken place.
    expect(button('Confirm appointment of Zed Later')).toBeEnabled();
    expect(button('Complete appointment of Zed Later')).toBeDisabled();
  });

  it("Confirm sends the status; the row shows the server's answer", async () => {
    api.onGet('/api/appointments').reply(200, pageOf([MIA_VISIT], 1));
    api
      .onPatch('/api/appointments/31/status')
      .reply(200, { ...MIA_VISIT, status: 'confirmed', notes: 'Confirmed by phone' });
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await view.user.click(await screen.findByLabelText('Confirm appointment of Mia Martin'));

    expect(await within(row('Mia Martin')).findByText('confirmed')).toHaveClass('ant-tag-green');
    expect(within(row('Mia Martin')).getByText('Confirmed by phone')).toBeInTheDocument();
    expect(api.sent('patch')).toEqual([expect.objectContaining({ body: { status: 'confirmed' } })]);
    expect(button('Confirm appointment of Mia Martin')).toBeDisabled();
    expect(await screen.findByText('The appointment of Mia Martin is confirmed')).toBeInTheDocument();
  });

  it('a refused status change shows the banner, dismissible, and leaves the row as it was', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([ANA_VISIT], 1));
    api
      .onPatch('/api/appointments/33/status')
      .reply(409, refusal('Dr. Michael Chen already has an appointment on 2099-12-02 at 15:00'));
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await view.user.click(await screen.findByLabelText('Confirm appointment of Ana Diaz'));

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Dr. Michael Chen already has an appointment on 2099-12-02 at 15:00');
    expect(within(row('Ana Diaz')).getByText('cancelled')).toBeInTheDocument();
    expect(within(row('Ana Diaz')).queryByText('confirmed')).not.toBeInTheDocument();
    await view.user.click(within(banner).getByLabelText('Dismiss'));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('Delete asks first, then deletes and reads the list again', async () => {
    api.onGet('/api/appointments').replyOnce(200, pageOf([MIA_VISIT, TOM_VISIT], 2));
    api.onGet('/api/appointments').reply(200, pageOf([TOM_VISIT], 1));
    api.onDelete('/api/appointments/31').reply(200, { message: 'Appointment deleted' });
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await view.user.click(await screen.findByLabelText('Delete appointment of Mia Martin'));

    expect(
      await screen.findByText(
        /Are you sure you want to delete the appointment of Mia Martin on .* at 10:00\?/,
      ),
    ).toBeInTheDocument();
    expect(api.sent('delete')).toHaveLength(0);
    await view.user.click(textButton('Delete'));
    await waitFor(() => expect(screen.queryByText('Mia Martin')).not.toBeInTheDocument());
    expect(api.sent('delete')).toHaveLength(1);
    expect(screen.getByText('Tom Baker')).toBeInTheDocument();
    expect(await screen.findByText('The appointment of Mia Martin was deleted')).toBeInTheDocument();
  });

  it('?new=1&patient=7&date= opens New Appointment prefilled; closing takes them off the URL', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([], 0));
    api.onGet('/api/patients/7').reply(200, MIA);
    const view = renderScreen(<AppointmentsPage />, {
      url: '/appointments?status=pending&new=1&patient=7&date=2099-05-06',
    });
    const dialog = await findDialog('New Appointment');
    await waitFor(() => expect(within(dialog).getByLabelText('Patient Name')).toHaveValue('Mia Martin'));
    expect(within(dialog).getByLabelText('Phone')).toHaveValue('555-0107');
    expect(within(dialog).getByLabelText('Date')).toHaveValue('2099-05-06');

    await view.user.click(within(dialog).getByText('Cancel'));
    await waitFor(() => expect(view.currentUrl()).toBe('/appointments?status=pending'));

    await view.user.click(textButton('New Appointment'));
    expect(view.currentParams().get('new')).toBe('1');
    const fresh = await findDialog('New Appointment');
    expect(within(fresh).getByLabelText('Patient Name')).toHaveValue('');
  });

  it('?treatment= starts New Appointment with that treatment and its length; one not offered is ignored', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([], 0));
    api.onGet('/api/patients/7').reply(200, MIA);
    api.onGet('/api/settings').reply(200, {
      ...SETTINGS,
      treatmentMinutes: { ...SETTINGS.treatmentMinutes, 'Regular Cleaning': 50 },
    });
    const view = renderScreen(<AppointmentsPage />, {
      url: '/appointments?new=1&patient=7&treatment=Regular+Cleaning&returnTo=%2Frecall',
    });
    const dialog = await findDialog('New Appointment');
    await waitFor(() => expect(within(dialog).getByLabelText('Patient Name')).toHaveValue('Mia Martin'));
    expect(within(dialog).getByTitle('Regular Cleaning')).toBeInTheDocument();
    // The clinic's length for it, as choosing it by hand gives.
    await waitFor(() => expect(within(dialog).getByLabelText('Duration')).toHaveValue('50'));
    await view.user.click(within(dialog).getByText('Cancel'));
    await waitFor(() => expect(view.currentUrl()).toBe('/recall'));

    view.unmount();
    const other = renderScreen(<AppointmentsPage />, { url: '/appointments?new=1&treatment=Tattoo' });
    const fresh = await findDialog('New Appointment');
    expect(within(fresh).queryByTitle('Tattoo')).not.toBeInTheDocument();
    expect(within(fresh).getByLabelText('Duration')).toHaveValue('');
    await other.user.click(within(fresh).getByText('Cancel'));
    await waitFor(() => expect(other.currentParams().get('treatment')).toBeNull());
  });

  it('?returnTo= sends staff back to the screen that opened the form, and only to a path of the app', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([], 0));
    const view = renderScreen(<AppointmentsPage />, {
      url: '/appointments?new=1&date=2099-05-06&returnTo=%2Fcalendar%3Fmonth%3D2099-05%26day%3D2099-05-06',
    });
    const dialog = await findDialog('New Appointment');
    expect(within(dialog).getByLabelText('Date')).toHaveValue('2099-05-06');
    await view.user.click(within(dialog).getByText('Cancel'));
    await waitFor(() => expect(view.currentUrl()).toBe('/calendar?month=2099-05&day=2099-05-06'));
  });

  it('a returnTo that leaves the app is ignored', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([], 0));
    const view = renderScreen(<AppointmentsPage />, {
      url: '/appointments?new=1&returnTo=%2F%2Fevil.example%2Fsteal',
    });
    const dialog = await findDialog('New Appointment');
    await view.user.click(within(dialog).getByText('Cancel'));
    await waitFor(() => expect(view.currentParams().get('new')).toBeNull());
    expect(window.location.pathname).toBe('/appointments');
  });

  it('Edit opens the form with the appointment and saves it with PUT', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([MIA_VISIT], 1));
    api.onGet('/api/dentists/2/free-times').reply((config) => [
      200,
      {
        date: '2099-12-02',
        duration: config.params.duration,
        times: ['09:00', '10:00', '10:15'],
        open: [{ start: '09:00', end: '17:00' }],
        reason: null,
        message: null,
      },
    ]);
    api.onPut('/api/appointments/31').reply(200, { ...MIA_VISIT, treatment: 'Tooth Extraction' });
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await view.user.click(await screen.findByLabelText('Edit appointment of Mia Martin'));

    const dialog = await findDialog('Edit Appointment');
    expect(within(dialog).getByLabelText('Patient Name')).toHaveValue('Mia Martin');
    expect(within(dialog).getByLabelText('Date')).toHaveValue('2099-12-02');
    expect(within(dialog).getByLabelText('Notes')).toHaveValue('Sensitive upper left molar');
    expect(within(dialog).getByTitle('Dr. Michael Chen')).toBeInTheDocument();
    // Its own time is free (the server leaves the visit itself out: except_id).
    expect(await within(dialog).findByTitle('10:00–11:30')).toBeInTheDocument();
    expect(api.lastParams('/api/dentists/2/free-times')).toEqual({
      date: '2099-12-02',
      duration: 90,
      except_id: 31,
      patient_id: 7,
      treatment: 'Root Canal',
    });

    await view.user.click(within(dialog).getByLabelText('Treatment'));
    await view.user.click(await screen.findByTitle('Tooth Extraction'));
    // Another treatment brings its own length.
    expect(await within(dialog).findByTitle('10:00–11:00')).toBeInTheDocument();
    await view.user.click(within(dialog).getByText('Save Changes'));

    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    expect(api.sent('put')[0]?.body).toEqual({
      patient: 'Mia Martin',
      phone: '555-0107',
      patient_id: 7,
      date: '2099-12-02',
      time: '10:00',
      dentist_id: 2,
      treatment: 'Tooth Extraction',
      duration: 60,
      notes: 'Sensitive upper left molar',
    });
    expect(await screen.findByText('The appointment of Mia Martin was saved')).toBeInTheDocument();
  });

  it('Edit of a past visit whose dentist was deleted still names that dentist and keeps them', async () => {
    const kept = { ...MIA_VISIT, dentist_id: 9, dentist_name: 'Dr. Former Partner' };
    api.onGet('/api/appointments').reply(200, pageOf([kept], 1));
    api.onGet('/api/dentists/9/free-times').reply(404, refusal('Dentist not found'));
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await view.user.click(await screen.findByLabelText('Edit appointment of Mia Martin'));

    const dialog = await findDialog('Edit Appointment');
    expect(within(dialog).getByTitle('Dr. Former Partner')).toBeInTheDocument();
  });

  it('?appointment=31 (a link from the dashboard) opens that appointment; closing takes it off the URL', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([MIA_VISIT], 1));
    api.onGet('/api/appointments/31').reply(200, MIA_VISIT);
    api.onGet('/api/dentists/2/free-times').reply(200, {
      date: MIA_VISIT.date,
      duration: 90,
      times: ['10:00'],
      open: [{ start: '09:00', end: '17:00' }],
      reason: null,
      message: null,
    });
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments?search=Mia&appointment=31' });
    const dialog = await findDialog('Edit Appointment');
    expect(within(dialog).getByLabelText('Patient Name')).toHaveValue('Mia Martin');
    await view.user.click(within(dialog).getByText('Cancel'));
    await waitFor(() => expect(view.currentParams().get('appointment')).toBeNull());
    expect(view.currentParams().get('search')).toBe('Mia');
  });
});
