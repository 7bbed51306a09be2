import { ACTIVITY_SEEN_URL, endTimeOf } from '@dental/shared';
import { createFakeApi, type FakeApi, refusal, renderScreen, staffMember } from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { NotificationBell } from '../layout/NotificationBell';
import { invalidateForChange } from '../live/invalidations';
import { DashboardPage } from './DashboardPage';

const TODAY_DAY = '2026-11-24';
const STATS = {
  data: [
    { name: "Today's Appointments", value: 2, change: '+1', changeType: 'positive' },
    { name: 'Pending Confirmations', value: 1, change: '+1', changeType: 'negative' },
    { name: 'Total Patients', value: 1234, change: '+15', changeType: 'positive' },
    { name: 'Active Dentists', value: 3, change: '0', changeType: 'positive' },
  ],
};

function appointment(
  id: number,
  patient: string,
  time: string,
  treatment: string,
  status: string,
  duration = 30,
) {
  return {
    id,
    patient,
    patient_id: id + 100,
    phone: '555-0100',
    dentist_id: 1,
    dentist_name: 'Dr. Sarah Johnson',
    date: TODAY_DAY,
    time,
    duration,
    end_time: endTimeOf(time, duration),
    treatment,
    status,
    notes: null,
    outside_hours: false,
    outside_hours_reason: null,
    overlapping: false,
    created_at: '2026-11-20T09:00:00.000Z',
    updated_at: '2026-11-20T09:00:00.000Z',
  };
}
const MARIA = appointment(11, 'Maria Garcia', '09:30', 'Root Canal', 'confirmed', 90);
const TOM = appointment(12, 'Tom Baker', '11:00', 'Regular Cleaning', 'pending', 60);
const ANN = appointment(13, 'Ann Lee', '14:00', 'Dental Checkup', 'cancelled');
const TODAY = { data: [MARIA, TOM, ANN] };

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const ACTIVITY = {
  data: [
    {
      id: 41,
      action: 'update_status',
      entity: 'appointment',
      entity_id: '12',
      user_name: 'Riley Reception',
      description: 'Riley Reception changed the status of appointment #12 (Tom Baker) to pending',
      created_at: minutesAgo(5),
    },
    {
      id: 40,
      action: 'create',
      entity: 'patient',
      entity_id: '7',
      user_name: 'Alex Admin',
      description: 'Alex Admin created patient #7 (Mia Martin)',
      created_at: minutesAgo(180),
    },
  ],
};

const RECEPTIONIST = staffMember('receptionist', { id: 2, name: 'Riley Reception' });

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/dashboard/activity').reply(200, ACTIVITY);
  // The bell's marker: this user has seen neither of the two records.
  api.onGet(ACTIVITY_SEEN_URL).reply(200, { seen_id: 39 });
});
afterEach(() => api.restore());

const answerNormally = () => {
  api.onGet('/api/dashboard/stats').reply(200, STATS);
  api.onGet('/api/dashboard/appointments/today').reply(200, TODAY);
};

const renderDashboard = () => renderScreen(<DashboardPage />, { url: '/', staff: RECEPTIONIST });

/** The card of one stat, found by its name. */
const statCard = (name: string) => screen.getByTestId(`stat-${name}`);
const statValue = (name: string) =>
  statCard(name).querySelector('.ant-statistic-content')?.textContent?.replace(/,/g, '');
/** The row of one of today's appointments, found by the patient's name. */
const appointmentRow = (patient: string) => screen.getByText(patient).closest('li') as HTMLElement;

describe('DashboardPage (docs/product.md, Screens: Dashboard)', () => {
  it("shows 'Loading dashboard...' while it asks for the stats and today's appointments together", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    api.onGet('/api/dashboard/stats').reply(async () => {
      await gate;
      return [200, STATS];
    });
    api.onGet('/api/dashboard/appointments/today').reply(async () => {
      await gate;
      return [200, TODAY];
    });
    renderDashboard();
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Loading dashboard...')).toBeInTheDocument();
    // Both calls are under way before either has answered.
    await waitFor(() =>
      expect(
        api
          .sent('get')
          .map((request) => request.url)
          .filter((url) => url !== '/api/dashboard/activity')
          .sort(),
      ).toEqual(['/api/dashboard/appointments/today', '/api/dashboard/stats']),
    );
    release();
    expect(await screen.findByText('Maria Garcia')).toBeInTheDocument();
    expect(screen.queryByText('Loading dashboard...')).not.toBeInTheDocument();
  });

  it('welcomes the user and shows each stat card with value, change and its type by colour and words', async () => {
    answerNormally();
    renderDashboard();
    await screen.findByText('Total Patients');
    expect(screen.getByText(/Welcome back, Riley Reception/)).toHaveTextContent('Bright Smile Dental');
    for (const stat of STATS.data) {
      expect(statValue(stat.name)).toBe(String(stat.value));
      expect(statCard(stat.name)).toHaveTextContent(stat.change);
    }
    const good = within(statCard("Today's Appointments")).getByTitle('Positive change');
    const bad = within(statCard('Pending Confirmations')).getByTitle('Negative change');
    expect(good).toHaveClass('ant-typography-success');
    expect(good).toHaveTextContent('+1 (positive)');
    expect(bad).toHaveClass('ant-typography-danger');
    expect(bad).toHaveTextContent('+1 (negative)');
    // The figure says what it counts.
    expect(statCard("Today's Appointments")).toHaveTextContent('Excludes cancelled visits');
    expect(screen.queryByText('Sample')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("lists today's appointments with initials, name, treatment, time range and status; cancelled apart, not counted", async () => {
    answerNormally();
    renderDashboard();
    await screen.findByText('Maria Garcia');
    const maria = appointmentRow('Maria Garcia');
    expect(maria).toHaveTextContent('MG');
    // Each visit shows when it starts and when it ends.
    expect(maria).toHaveTextContent('Root Canal · 09:30–11:00 · Dr. Sarah Johnson');
    const tom = appointmentRow('Tom Baker');
    expect(tom).toHaveTextContent('TB');
    expect(tom).toHaveTextContent('Regular Cleaning · 11:00–12:00');
    // Confirmed is green, anything else yellow; the status is written too.
    expect(within(maria).getByText('confirmed').className).toMatch(/green/);
    expect(within(tom).getByText('pending').className).toMatch(/gold/);

    // The list counts what the figure counts: cancelled visits are listed apart, struck through.
    const counted = screen.getByRole('list', { name: "Today's appointments" });
    expect(within(counted).getAllByRole('listitem')).toHaveLength(2);
    expect(statValue("Today's Appointments")).toBe('2');
    expect(screen.getByText(/2 appointments today, not counting cancelled visits/)).toHaveTextContent(
      '1 cancelled visit listed apart below',
    );
    const cancelled = screen.getByRole('list', { name: 'Cancelled today, not counted' });
    expect(within(cancelled).getByText('Ann Lee').closest('del')).not.toBeNull();
    expect(within(cancelled).getByText('cancelled')).toBeInTheDocument();
    expect(appointmentRow('Ann Lee')).toHaveTextContent('Dental Checkup · 14:00–14:30');
  });

  it('says so when nothing is scheduled today', async () => {
    api.onGet('/api/dashboard/stats').reply(200, STATS);
    api.onGet('/api/dashboard/appointments/today').reply(200, { data: [] });
    renderDashboard();
    expect(await screen.findByText('No appointments scheduled for today')).toBeInTheDocument();
  });

  it('a row opens that patient in Appointments for today, by mouse or keyboard', async () => {
    answerNormally();
    const view = renderDashboard();
    const link = await screen.findByRole('link', { name: /Maria Garcia/ });
    await view.user.click(link);
    expect(view.currentUrl()).toBe(
      `/appointments?search=Maria%20Garcia&from=${TODAY_DAY}&to=${TODAY_DAY}&appointment=11`,
    );

    window.history.replaceState(null, '', '/');
    screen.getByRole('link', { name: /Tom Baker/ }).focus();
    await view.user.keyboard('{Enter}');
    expect(view.currentParams().get('search')).toBe('Tom Baker');
    expect(view.currentParams().get('from')).toBe(TODAY_DAY);
  });

  it('a failed stats call: the banner, sample figures marked as such, the real list kept; Retry brings real figures', async () => {
    api.onGet('/api/dashboard/stats').replyOnce(500, refusal('Internal server error'));
    api.onGet('/api/dashboard/stats').reply(200, STATS);
    api.onGet('/api/dashboard/appointments/today').reply(200, TODAY);
    const view = renderDashboard();

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Failed to load dashboard data. Showing sample data.');
    // Every figure is a sample and says so; today's list did load and is the real one, unmarked.
    for (const name of [
      "Today's Appointments",
      'Pending Confirmations',
      'Total Patients',
      'Active Dentists',
    ]) {
      expect(within(statCard(name)).getByText('Sample')).toBeInTheDocument();
    }
    expect(screen.queryByText('1,234')).not.toBeInTheDocument();
    expect(within(appointmentRow('Maria Garcia')).queryByText('Sample')).not.toBeInTheDocument();
    expect(screen.queryByText('Sample Patient')).not.toBeInTheDocument();

    await view.user.click(within(banner).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('1,234')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Sample')).not.toBeInTheDocument();
    expect(api.sent('get', '/api/dashboard/stats')).toHaveLength(2);
    // What had loaded was not asked for again.
    expect(api.sent('get', '/api/dashboard/appointments/today')).toHaveLength(1);
  });

  it('a failed list: sample rows marked and not openable, real figures kept, and the × dismisses the banner', async () => {
    api.onGet('/api/dashboard/stats').reply(200, STATS);
    api
      .onGet('/api/dashboard/appointments/today')
      .reply(503, refusal("Failed to fetch today's appointments"));
    const view = renderDashboard();
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Failed to load dashboard data. Showing sample data.');
    expect(statValue('Total Patients')).toBe('1234');
    expect(within(statCard('Total Patients')).queryByText('Sample')).not.toBeInTheDocument();
    const sampleRow = appointmentRow('Sample Patient');
    expect(within(sampleRow).getByText('Sample')).toBeInTheDocument();
    expect(sampleRow).toHaveTextContent('Dental Checkup · 09:00–09:30');
    expect(screen.queryByRole('link', { name: /Sample Patient/ })).not.toBeInTheDocument();
    expect(screen.getByText(/Sample appointments, not your clinic's/)).toBeInTheDocument();

    await view.user.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    // The samples stay, still marked.
    expect(within(appointmentRow('Sample Patient')).getByText('Sample')).toBeInTheDocument();
  });

  it('shows the recent activity: who did what, and when', async () => {
    answerNormally();
    renderDashboard();
    const list = await screen.findByRole('list', { name: 'Recent activity' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Riley Reception changed the status of appointment #12');
    expect(items[0]).toHaveTextContent('5 minutes ago');
    expect(items[1]).toHaveTextContent('Alex Admin created patient #7 (Mia Martin)');
    expect(items[1]).toHaveTextContent('3 hours ago');
    expect(api.lastParams('/api/dashboard/activity')).toEqual({ limit: 20 });
  });

  it("the bell and the card share one activity request; another desk's booking re-reads the figures and the list", async () => {
    answerNormally();
    const view = renderScreen(
      <>
        <NotificationBell />
        <DashboardPage />
      </>,
      { url: '/', staff: RECEPTIONIST },
    );
    await screen.findByRole('list', { name: 'Recent activity' });
    expect(api.sent('get', '/api/dashboard/activity')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Notifications, 2 new' })).toBeInTheDocument();

    // Another desk books a visit: the shell's stream of changes makes all three stale, and they are read again.
    api.onGet('/api/dashboard/activity').reply(200, {
      data: [
        {
          id: 42,
          action: 'create',
          entity: 'appointment',
          entity_id: '14',
          user_name: 'Alex Admin',
          description: 'Alex Admin created appointment #14 (Zoe Hart)',
          created_at: minutesAgo(0),
        },
        ...ACTIVITY.data,
      ],
    });
    api
      .onGet('/api/dashboard/appointments/today')
      .reply(200, { data: [...TODAY.data, appointment(14, 'Zoe Hart', '16:00', 'Root Canal', 'pending')] });
    invalidateForChange(
      view.queryClient,
      { event: 1, resource: 'appointment', id: 14, action: 'created', by: 1, desk: null },
      RECEPTIONIST.id,
    );
    expect(await screen.findByText('Zoe Hart')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Notifications, 3 new' })).toBeInTheDocument();
    expect(api.sent('get', '/api/dashboard/stats')).toHaveLength(2);
    expect(api.sent('get', '/api/dashboard/activity')).toHaveLength(2);
  });
});
