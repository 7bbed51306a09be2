import { apiClient, useAuthStore } from '@dental/shared';
import { UiProvider } from '@dental/shared/ui';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { staffMember } from '../testing/staff';
import { DashboardPage } from './DashboardPage';

/** The server, as the shared client meets it: each answer can be held back until the test releases it. */
type Answer = { status: number; data?: unknown };
let answers: Record<string, Answer[]> = {};
let sent: string[] = [];
let gate: Promise<void> | null = null;

const fakeAdapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
  const url = config.url ?? '';
  sent.push(url);
  if (gate) await gate;
  const queue = answers[url] ?? [];
  const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? {
    status: 404,
    data: { message: 'Not found' },
  };
  const response: AxiosResponse = {
    data: answer.data,
    status: answer.status,
    statusText: '',
    headers: {},
    config,
  };
  if (answer.status >= 400) {
    throw new AxiosError('Request failed', AxiosError.ERR_BAD_RESPONSE, config, null, response);
  }
  return response;
};

const STATS = {
  data: [
    { name: "Today's Appointments", value: 6, change: '+2', changeType: 'positive' },
    { name: 'Pending Confirmations', value: 2, change: '+1', changeType: 'negative' },
    { name: 'Total Patients', value: 1234, change: '+15', changeType: 'positive' },
    { name: 'Active Dentists', value: 3, change: '0', changeType: 'positive' },
  ],
};
const TODAY = {
  data: [
    { id: 11, patient: 'Maria Garcia', treatment: 'Root Canal', time: '09:30', status: 'confirmed' },
    { id: 12, patient: 'Tom Baker', treatment: 'Regular Cleaning', time: '11:00', status: 'pending' },
  ],
};

const USER = staffMember('receptionist', {
  id: 2,
  email: 'reception@brightsmile.example',
  name: 'Riley Reception',
});

const renderDashboard = () =>
  render(
    <UiProvider>
      <DashboardPage />
    </UiProvider>,
  );

/** The card of one stat, found by its name. */
const statCard = (name: string) =>
  screen.getByText(name, { selector: '.ant-statistic-title' }).closest('.ant-card') as HTMLElement;
/** The row of one of today's appointments, found by the patient's name. */
const appointmentRow = (patient: string) => screen.getByText(patient).closest('li') as HTMLElement;

const originalAdapter = apiClient.defaults.adapter;

describe('DashboardPage (spec §2 Dashboard)', () => {
  beforeEach(() => {
    answers = {
      '/api/dashboard/stats': [{ status: 200, data: STATS }],
      '/api/dashboard/appointments/today': [{ status: 200, data: TODAY }],
    };
    sent = [];
    gate = null;
    apiClient.defaults.adapter = fakeAdapter;
    localStorage.clear();
    sessionStorage.clear();
    useAuthStore.setState({ status: 'authenticated', user: USER, token: 'token', remember: false });
  });

  afterAll(() => {
    apiClient.defaults.adapter = originalAdapter;
  });

  it("shows 'Loading dashboard...' while it asks for the stats and today's appointments together", async () => {
    let release = () => {};
    gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    renderDashboard();
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Loading dashboard...')).toBeInTheDocument();
    // Both calls are under way before either has answered.
    await waitFor(() =>
      expect([...sent].sort()).toEqual(['/api/dashboard/appointments/today', '/api/dashboard/stats']),
    );
    release();
    expect(await screen.findByText('Maria Garcia')).toBeInTheDocument();
    expect(screen.queryByText('Loading dashboard...')).not.toBeInTheDocument();
  });

  it('welcomes the user and shows each stat card with its value and change', async () => {
    renderDashboard();
    expect(await screen.findByText('Total Patients')).toBeInTheDocument();
    expect(screen.getByText(/Welcome back, Riley Reception/)).toHaveTextContent('Bright Smile Dental');
    for (const stat of STATS.data) {
      const card = statCard(stat.name);
      expect(card).toHaveTextContent(stat.change);
      expect(card.querySelector('.ant-statistic-content')?.textContent?.replace(/,/g, '')).toBe(
        String(stat.value),
      );
    }
    // The change reads as good or bad news by its type.
    expect(within(statCard("Today's Appointments")).getByText('+2')).toHaveClass('ant-typography-success');
    expect(within(statCard('Pending Confirmations')).getByText('+1')).toHaveClass('ant-typography-danger');
    expect(screen.queryByText('Sample')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("lists today's appointments: initials, name, treatment, time and a status badge", async () => {
    renderDashboard();
    expect(
      await screen.findByText("Today's Appointments", { selector: '.ant-card-head-title' }),
    ).toBeInTheDocument();
    const maria = appointmentRow('Maria Garcia');
    expect(maria).toHaveTextContent('MG');
    expect(maria).toHaveTextContent('Root Canal');
    expect(maria).toHaveTextContent('09:30');
    const confirmed = within(maria).getByText('confirmed');
    const tom = appointmentRow('Tom Baker');
    expect(tom).toHaveTextContent('TB');
    expect(tom).toHaveTextContent('Regular Cleaning');
    expect(tom).toHaveTextContent('11:00');
    const pending = within(tom).getByText('pending');
    // Confirmed is green, anything else yellow.
    expect(confirmed.className).toMatch(/green/);
    expect(pending.className).not.toMatch(/green/);
    expect(pending.className).toMatch(/gold|yellow|warning/);
  });

  it('says so when nothing is scheduled today', async () => {
    answers['/api/dashboard/appointments/today'] = [{ status: 200, data: { data: [] } }];
    renderDashboard();
    expect(await screen.findByText('No appointments scheduled for today')).toBeInTheDocument();
  });

  it('accepts bare arrays as well as { data } answers', async () => {
    answers['/api/dashboard/stats'] = [{ status: 200, data: STATS.data }];
    answers['/api/dashboard/appointments/today'] = [{ status: 200, data: TODAY.data }];
    renderDashboard();
    expect(await screen.findByText('Tom Baker')).toBeInTheDocument();
    expect(screen.getByText('Active Dentists')).toBeInTheDocument();
  });

  it('when a call fails it says so, shows sample data marked as such, and Retry loads the real figures', async () => {
    const user = userEvent.setup();
    answers['/api/dashboard/stats'] = [
      { status: 500, data: { message: 'Internal server error' } },
      { status: 200, data: STATS },
    ];
    renderDashboard();
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Failed to load dashboard data. Showing sample data.');
    // The figures are samples, each marked; today's list did load and is the real one.
    expect(screen.getAllByText('Sample')).toHaveLength(4);
    expect(screen.queryByText('1,234')).not.toBeInTheDocument();
    expect(screen.getByText('Maria Garcia')).toBeInTheDocument();
    expect(screen.queryByText('Sample Patient')).not.toBeInTheDocument();

    await user.click(within(banner).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('1,234')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Sample')).not.toBeInTheDocument();
    expect(sent.filter((url) => url === '/api/dashboard/stats')).toHaveLength(2);
  });

  it('the error banner can be dismissed with its ×', async () => {
    const user = userEvent.setup();
    answers['/api/dashboard/appointments/today'] = [{ status: 503 }];
    renderDashboard();
    const banner = await screen.findByRole('alert');
    await user.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    // The sample data stays, still marked as sample.
    expect(screen.getAllByText('Sample').length).toBeGreaterThan(0);
  });
});
