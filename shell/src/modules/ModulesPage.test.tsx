import { apiClient, MODULE_IDS, type ModuleEntry } from '@dental/shared';
import { StylelessUi } from '@dental/shared/testing';
import { UiProvider } from '@dental/shared/ui';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { ModulesPage } from './ModulesPage';
import { useModulesStore } from './modulesStore';

// Each enabled module's description says which build serves it; the federation runtime is not needed.
jest.mock('./moduleRuntime', () => ({
  registerModules: jest.fn(),
  loadModuleDescription: jest.fn(async (entry: { id: string }) => ({
    id: entry.id,
    version: '1.4.0',
    buildTime: `2026-11-2${entry.id.length % 10}T08:00:00.000Z`,
    screens: {},
  })),
}));

/** A tiny server: the clinic's switches, and what was sent to it. */
let switches: Record<string, boolean> = {};
let sent: Array<{ method: string; url: string; params: unknown; data: unknown }> = [];
let failPut: { status: number; data?: unknown } | null = null;

const TITLES: Record<string, string> = {
  appointments: 'Appointments',
  patients: 'Patients',
  dentists: 'Dentists',
  scheduling: 'Scheduling',
  admin: 'Administration',
  booking: 'Online booking',
};
const entryOf = (id: string): ModuleEntry => ({
  id: id as ModuleEntry['id'],
  title: TITLES[id] ?? id,
  container: `mf_${id}`,
  entry: `/modules/${id}/mf-manifest.json`,
  version: '1.4.0',
  release: null,
  integrity: null,
  enabled: switches[id] ?? true,
});

const fakeAdapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
  const method = (config.method ?? 'get').toUpperCase();
  const url = config.url ?? '';
  const data = typeof config.data === 'string' ? JSON.parse(config.data) : config.data;
  sent.push({ method, url, params: config.params, data });
  const answer = (status: number, body: unknown): AxiosResponse => {
    const response: AxiosResponse = { data: body, status, statusText: '', headers: {}, config };
    if (status >= 400)
      throw new AxiosError('Request failed', AxiosError.ERR_BAD_REQUEST, config, null, response);
    return response;
  };
  if (method === 'GET' && url === '/api/modules') {
    const all = MODULE_IDS.map(entryOf);
    return answer(200, { data: config.params?.all ? all : all.filter((entry) => entry.enabled) });
  }
  if (method === 'GET' && url === '/api/client-errors') {
    return answer(200, { data: [{ module: 'patients', count: 3, last_at: '2026-11-29T09:00:00.000Z' }] });
  }
  if (method === 'GET' && url === '/api/modules/dentists/releases') {
    return answer(200, {
      default_release: '1.0.0-0123456789ab',
      clinic_release: '1.1.0-ba9876543210',
      releases: [],
      events: [
        {
          id: 3,
          module_id: 'dentists',
          release: '1.1.0-ba9876543210',
          action: 'pointed',
          clinic: 'bright-smile-dental',
          actor: 'platform (ci)',
          at: '2026-11-29T10:05:00.000Z',
        },
        {
          id: 2,
          module_id: 'dentists',
          release: '1.1.0-ba9876543210',
          action: 'published',
          clinic: null,
          actor: 'platform (ci)',
          at: '2026-11-29T10:00:00.000Z',
        },
      ],
    });
  }
  const put = url.match(/^\/api\/modules\/(\w+)$/);
  if (method === 'PUT' && put?.[1]) {
    if (failPut) return answer(failPut.status, failPut.data);
    switches[put[1]] = data.enabled;
    return answer(200, entryOf(put[1]));
  }
  return answer(404, { message: 'Not found' });
};

const renderPage = () =>
  render(
    <StylelessUi>
      <UiProvider>
        <ModulesPage />
      </UiProvider>
    </StylelessUi>,
  );
const rowOf = (title: string) => screen.getByText(title, { selector: 'strong' }).closest('tr') as HTMLElement;

const originalAdapter = apiClient.defaults.adapter;

describe("ModulesPage: the admin's module switchboard", () => {
  beforeEach(() => {
    switches = { dentists: false };
    sent = [];
    failPut = null;
    apiClient.defaults.adapter = fakeAdapter;
    const enabled = MODULE_IDS.map(entryOf).filter((entry) => entry.enabled);
    useModulesStore.setState({ status: 'ready', error: null, entries: enabled, modules: {} });
  });

  afterAll(() => {
    apiClient.defaults.adapter = originalAdapter;
  });

  it('lists every module, switched on or off, with its version and entry', async () => {
    renderPage();
    expect(await screen.findByText('Appointments', { selector: 'strong' })).toBeInTheDocument();
    expect(sent[0]).toMatchObject({ method: 'GET', url: '/api/modules', params: { all: true } });
    for (const id of MODULE_IDS) {
      const row = rowOf(TITLES[id] as string);
      expect(row).toHaveTextContent('1.4.0');
      expect(row).toHaveTextContent(`/modules/${id}/mf-manifest.json`);
    }
    expect(screen.getByRole('switch', { name: 'Patients enabled' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Dentists enabled' })).not.toBeChecked();
  });

  it('shows which build serves each enabled module, read from the module itself', async () => {
    renderPage();
    await screen.findByText('Appointments', { selector: 'strong' });
    await waitFor(() =>
      expect(rowOf('Patients')).toHaveTextContent('Serving: 1.4.0, built 2026-11-28T08:00:00.000Z'),
    );
    expect(rowOf('Appointments')).toHaveTextContent('built 2026-11-22T08:00:00.000Z');
    expect(rowOf('Dentists')).toHaveTextContent('Serving: Switched off');
  });

  it("switching a module off saves it, confirms it and refreshes the app's own module list", async () => {
    const user = userEvent.setup();
    renderPage();
    const patients = await screen.findByRole('switch', { name: 'Patients enabled' });
    await user.click(patients);

    expect(await screen.findByText('Patients switched off for this clinic')).toBeInTheDocument();
    expect(sent).toContainEqual(
      expect.objectContaining({ method: 'PUT', url: '/api/modules/patients', data: { enabled: false } }),
    );
    expect(screen.getByRole('switch', { name: 'Patients enabled' })).not.toBeChecked();
    // The sidebar's list is read again, and no longer holds the module.
    await waitFor(() =>
      expect(useModulesStore.getState().entries.map((entry) => entry.id)).toEqual([
        'appointments',
        'scheduling',
        'admin',
        'booking',
      ]),
    );
  });

  it('switching a module on again brings it back', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('switch', { name: 'Dentists enabled' }));
    expect(await screen.findByText('Dentists switched on for this clinic')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Dentists enabled' })).toBeChecked();
    await waitFor(() =>
      expect(useModulesStore.getState().entries.map((entry) => entry.id)).toContain('dentists'),
    );
  });

  it("a refused switch shows the server's message and leaves the switch as it was", async () => {
    const user = userEvent.setup();
    failPut = { status: 403, data: { message: "You don't have permission to manage modules." } };
    renderPage();
    await user.click(await screen.findByRole('switch', { name: 'Scheduling enabled' }));
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent("You don't have permission to manage modules.");
    expect(screen.getByRole('switch', { name: 'Scheduling enabled' })).toBeChecked();

    await user.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it("counts each module's failures in the clinic's browsers over the last day", async () => {
    renderPage();
    await screen.findByText('Patients', { selector: 'strong' });
    await waitFor(() => expect(rowOf('Patients')).toHaveTextContent('3 failures'));
    expect(rowOf('Appointments')).toHaveTextContent('None');
  });

  it("shows the release this clinic runs and, on asking, the module's release history", async () => {
    renderPage();
    await screen.findByText('Dentists', { selector: 'strong' });
    const row = rowOf('Dentists');
    expect(row).toHaveTextContent('Build in place');
    fireEvent.click(
      within(row).getAllByRole('button', { name: 'Release history of Dentists' })[0] as HTMLElement,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Dentists: releases' });
    expect(
      await within(dialog).findByText(/1\.1\.0-ba9876543210, this clinic's own release/),
    ).toBeInTheDocument();
    const history = within(dialog).getByRole('list', { name: 'Release history' });
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringContaining('This clinic pointed at 1.1.0-ba9876543210'),
      expect.stringContaining('Published 1.1.0-ba9876543210'),
    ]);
    expect(sent.some((request) => request.url === '/api/modules/dentists/releases')).toBe(true);
  });

  it("a failed save without a server message shows 'Failed to update module'", async () => {
    const user = userEvent.setup();
    failPut = { status: 502 };
    renderPage();
    await user.click(await screen.findByRole('switch', { name: 'Administration enabled' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update module');
  });
});
