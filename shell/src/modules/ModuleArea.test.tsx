import {
  MODULE_CATALOG,
  type ModuleDescription,
  type ModuleEntry,
  type Role,
  useAuthStore,
} from '@dental/shared';
import { createFakeApi, StylelessUi, staffMember } from '@dental/shared/testing';
import { UiProvider } from '@dental/shared/ui';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { ModuleArea } from './ModuleArea';
import { loadModuleDescription, registerModules } from './moduleRuntime';
import { useModulesStore } from './modulesStore';
import { reloadPage } from './pageReload';

// The federation runtime is replaced: each test says what loading a module gives.
jest.mock('./moduleRuntime', () => ({
  registerModules: jest.fn(),
  loadModuleDescription: jest.fn(),
}));
jest.mock('./pageReload', () => ({ reloadPage: jest.fn() }));
const loadDescription = jest.mocked(loadModuleDescription);
const register = jest.mocked(registerModules);

const PATIENTS_ENTRY: ModuleEntry = {
  id: 'patients',
  title: 'Patients',
  container: 'mf_patients',
  entry: '/modules/patients/mf-manifest.json',
  version: '1.2.3',
  release: null,
  integrity: null,
  enabled: true,
};
const PATIENTS_PAGE = MODULE_CATALOG.patients.pages[0] as (typeof MODULE_CATALOG.patients.pages)[number];

let build = 0;
/** A module description whose /patients page is the given component (or load function). */
const describeModule = (load: () => Promise<{ default: ComponentType }>): ModuleDescription => {
  build += 1;
  return {
    id: 'patients',
    version: '1.2.3',
    // Each test's module is a new build, so no page is reused from an earlier test.
    buildTime: `2026-01-01T00:00:${String(build).padStart(2, '0')}Z`,
    screens: { '/patients': load },
  };
};
const pageOf = (Component: ComponentType) => () => Promise.resolve({ default: Component });

function PatientsScreen() {
  return <h1>Patients screen</h1>;
}

/** A screen that throws while drawing until the test mends it. */
let flakyBroken = true;
function FlakyScreen() {
  if (flakyBroken) throw new Error('Cannot read properties of undefined (reading "map")');
  return <h1>Patients screen</h1>;
}

/** A screen that always throws while drawing. */
function BrokenScreen(): never {
  throw new Error('Cannot draw the patients');
}

const person = (role: Role) => staffMember(role);

const renderArea = (role: Role = 'receptionist') => {
  useAuthStore.setState({ status: 'authenticated', user: person(role), token: 't', remember: false });
  return render(
    <StylelessUi>
      <UiProvider>
        <MemoryRouter initialEntries={['/patients']}>
          <nav>Sidebar stays</nav>
          <ModuleArea moduleId="patients" catalog={MODULE_CATALOG.patients} page={PATIENTS_PAGE} />
        </MemoryRouter>
      </UiProvider>
    </StylelessUi>,
  );
};

const realEntryChanged = useModulesStore.getState().entryChanged;

describe('ModuleArea: one module screen, its loading and its failures', () => {
  beforeEach(() => {
    loadDescription.mockReset();
    register.mockReset();
    jest.mocked(reloadPage).mockClear();
    sessionStorage.clear();
    useModulesStore.setState({
      status: 'ready',
      error: null,
      entries: [PATIENTS_ENTRY],
      modules: {},
      entryChanged: realEntryChanged,
    });
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it("loads the module on the first visit of its screen, then shows the module's page", async () => {
    loadDescription.mockResolvedValue(describeModule(pageOf(PatientsScreen)));
    renderArea();
    expect(await screen.findByRole('heading', { name: 'Patients screen' })).toBeInTheDocument();
    expect(loadDescription).toHaveBeenCalledTimes(1);
    expect(loadDescription).toHaveBeenCalledWith(PATIENTS_ENTRY);
  });

  it('a role without the permission sees Access Denied, and the module is not even loaded', async () => {
    loadDescription.mockResolvedValue(describeModule(pageOf(PatientsScreen)));
    // Every role holds `patients`, so a page that needs `dentists` stands in for a forbidden one.
    useAuthStore.setState({ status: 'authenticated', user: person('receptionist'), token: 't' });
    render(
      <StylelessUi>
        <UiProvider>
          <MemoryRouter>
            <ModuleArea
              moduleId="patients"
              catalog={MODULE_CATALOG.patients}
              page={{ ...PATIENTS_PAGE, permission: 'dentists' }}
            />
          </MemoryRouter>
        </UiProvider>
      </StylelessUi>,
    );
    expect(screen.getByText('Access Denied')).toBeInTheDocument();
    expect(screen.queryByText('Patients screen')).not.toBeInTheDocument();
    expect(loadDescription).not.toHaveBeenCalled();
  });

  it('a module that cannot be loaded shows its error and Retry in its own area; Retry loads it afresh', async () => {
    const user = userEvent.setup();
    loadDescription
      .mockRejectedValueOnce(new Error('Loading script failed: /modules/patients/remoteEntry.js'))
      .mockResolvedValueOnce(describeModule(pageOf(PatientsScreen)));
    renderArea();
    expect(await screen.findByText('The Patients module could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Loading script failed: /modules/patients/remoteEntry.js')).toBeInTheDocument();
    // The rest of the app is still there.
    expect(screen.getByText('Sidebar stays')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Patients screen' })).toBeInTheDocument();
    // The retry registers the module again, so its entry is fetched anew.
    expect(register).toHaveBeenCalledWith([PATIENTS_ENTRY], true);
    expect(loadDescription).toHaveBeenCalledTimes(2);
  });

  it('a module built for a newer app than this one says so in its area, and offers no Retry', async () => {
    loadDescription.mockRejectedValueOnce(
      new Error(
        '[ Federation Runtime ]: Version 2.1.0 from mf_shell of shared singleton module @dental/shared does not satisfy the requirement of mf_patients which needs ^2.4.0)',
      ),
    );
    renderArea();
    expect(
      await screen.findByText('The Patients module was built for a newer version of the app'),
    ).toBeInTheDocument();
    expect(screen.getByText(/needs \^2\.4\.0/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.getByText('Sidebar stays')).toBeInTheDocument();
  });

  it("a page whose code fails to download shows the module's error; Retry downloads it again", async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'error').mockImplementation(() => {});
    const load = jest
      .fn<Promise<{ default: ComponentType }>, []>()
      .mockRejectedValueOnce(new Error('Loading chunk 412 failed.'))
      .mockResolvedValueOnce({ default: PatientsScreen });
    loadDescription.mockResolvedValue(describeModule(load));
    renderArea();
    expect(await screen.findByText('The Patients module could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Loading chunk 412 failed.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Patients screen' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("a screen's code gone with its release loads the page again once, to run the release now pointed at", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    const gone = Object.assign(new Error('Loading chunk 412 failed.'), { name: 'ChunkLoadError' });
    loadDescription.mockResolvedValue(describeModule(jest.fn().mockRejectedValue(gone)));
    const entryChanged = jest.fn(async () => true);
    useModulesStore.setState({ entryChanged });
    renderArea();
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(entryChanged).toHaveBeenCalledWith('patients');

    // Failing again within the minute: no second reload, the failure and Retry instead.
    jest.mocked(reloadPage).mockClear();
    useModulesStore.setState({ modules: {} });
    renderArea();
    expect(await screen.findAllByText('The Patients module could not be loaded')).not.toHaveLength(0);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('reports each failure once to the server, with the module, its release and the phase', async () => {
    const api = createFakeApi();
    api.onPost('/api/client-errors').reply(204, null);
    try {
      jest.spyOn(console, 'error').mockImplementation(() => {});
      loadDescription.mockRejectedValue(new Error('Loading script failed: remoteEntry.js'));
      renderArea();
      expect(await screen.findByText('The Patients module could not be loaded')).toBeInTheDocument();
      await waitFor(() => expect(api.sent('post', '/api/client-errors')).toHaveLength(1));
      expect(api.sent('post', '/api/client-errors')[0]?.body).toEqual({
        module: 'patients',
        release: null,
        phase: 'load',
        message: 'Loading script failed: remoteEntry.js',
      });

      const drawing = jest.fn(async () => ({ default: BrokenScreen }));
      useModulesStore.setState({ modules: {} });
      loadDescription.mockResolvedValue(describeModule(drawing));
      renderArea();
      await waitFor(() => expect(api.sent('post', '/api/client-errors')).toHaveLength(2));
      expect(api.sent('post', '/api/client-errors')[1]?.body).toMatchObject({ phase: 'render' });
    } finally {
      api.restore();
    }
  });

  it("a screen's code that fails while the module's release is unchanged shows the failure, without reloading", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    const failed = Object.assign(new Error('Loading chunk 413 failed.'), { name: 'ChunkLoadError' });
    loadDescription.mockResolvedValue(describeModule(jest.fn().mockRejectedValue(failed)));
    useModulesStore.setState({ entryChanged: jest.fn(async () => false) });
    renderArea();
    expect(await screen.findByText('The Patients module could not be loaded')).toBeInTheDocument();
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('a page that throws while drawing is caught in its area, and Retry draws it again', async () => {
    const user = userEvent.setup();
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    flakyBroken = true;
    loadDescription.mockResolvedValue(describeModule(pageOf(FlakyScreen)));
    renderArea();
    expect(await screen.findByText('The Patients module could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Cannot read properties of undefined (reading "map")')).toBeInTheDocument();
    expect(screen.getByText('Sidebar stays')).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith('Module area failed', expect.any(Error), expect.anything());

    flakyBroken = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Patients screen' })).toBeInTheDocument();
  });

  it('a module build that lacks the screen says so', async () => {
    const description = describeModule(pageOf(PatientsScreen));
    loadDescription.mockResolvedValue({ ...description, screens: {} });
    renderArea();
    expect(await screen.findByText('This version of the module has no Patients page.')).toBeInTheDocument();
  });

  it('a preload that failed is not the visit’s failure: the visit loads the module again, and only its failure is reported', async () => {
    const api = createFakeApi();
    api.onPost('/api/client-errors').reply(204, null);
    try {
      loadDescription
        .mockRejectedValueOnce(new Error('Loading script failed: remoteEntry.js'))
        .mockResolvedValue(describeModule(pageOf(PatientsScreen)));
      await useModulesStore.getState().preload('patients', '/patients');
      expect(useModulesStore.getState().modules.patients).toMatchObject({ state: 'failed', preloaded: true });
      renderArea();
      expect(await screen.findByRole('heading', { name: 'Patients screen' })).toBeInTheDocument();
      expect(loadDescription).toHaveBeenCalledTimes(2);
      // The failed try is registered afresh, as Retry does.
      expect(register).toHaveBeenCalledWith([PATIENTS_ENTRY], true);
      expect(api.sent('post', '/api/client-errors')).toHaveLength(0);
    } finally {
      api.restore();
    }
  });

  it('a visit that waits for a preload which then fails loads the module itself', async () => {
    let failPreload: (error: Error) => void = () => {};
    loadDescription
      .mockImplementationOnce(() => new Promise((_, reject) => (failPreload = reject)))
      .mockResolvedValue(describeModule(pageOf(PatientsScreen)));
    const preloading = useModulesStore.getState().preload('patients', '/patients');
    renderArea();
    failPreload(new Error('Loading script failed: remoteEntry.js'));
    await preloading;
    expect(await screen.findByRole('heading', { name: 'Patients screen' })).toBeInTheDocument();
    expect(screen.queryByText('The Patients module could not be loaded')).not.toBeInTheDocument();
  });

  it('a second visit does not load the module again', async () => {
    loadDescription.mockResolvedValue(describeModule(pageOf(PatientsScreen)));
    const first = renderArea();
    expect(await screen.findByRole('heading', { name: 'Patients screen' })).toBeInTheDocument();
    first.unmount();
    renderArea();
    expect(await screen.findByRole('heading', { name: 'Patients screen' })).toBeInTheDocument();
    await waitFor(() => expect(loadDescription).toHaveBeenCalledTimes(1));
  });
});
