import type { ModuleEntry } from '@dental/shared';
import { registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { registerModules } from './moduleRuntime';

jest.mock('@module-federation/enhanced/runtime', () => ({
  loadRemote: jest.fn(),
  registerPlugins: jest.fn(),
  registerRemotes: jest.fn(),
}));

const dentists: ModuleEntry = {
  id: 'dentists',
  container: 'mf_dentists',
  entry: '/modules/dentists/mf-manifest.json',
  title: 'Dentists',
  version: '1.0.0',
  release: null,
  integrity: null,
  enabled: true,
};

describe('registering the modules with the federation runtime', () => {
  it('gives the runtime its retry and integrity plugins once, before the first modules', () => {
    registerModules([dentists]);
    registerModules([dentists], true);
    expect(registerPlugins).toHaveBeenCalledTimes(1);
    expect(jest.mocked(registerPlugins).mock.calls[0]?.[0]).toEqual([
      expect.objectContaining({ name: 'retry-plugin' }),
      expect.objectContaining({ name: 'module-integrity' }),
    ]);
    expect(jest.mocked(registerPlugins).mock.invocationCallOrder[0]).toBeLessThan(
      jest.mocked(registerRemotes).mock.invocationCallOrder[0] ?? 0,
    );
    expect(registerRemotes).toHaveBeenLastCalledWith(
      [{ name: 'mf_dentists', entry: `${window.location.origin}/modules/dentists/mf-manifest.json` }],
      { force: true },
    );
  });

  it('registers a module again only when its entry changed (another release), or on a retry', () => {
    jest.mocked(registerRemotes).mockClear();
    registerModules([dentists]);
    expect(registerRemotes).not.toHaveBeenCalled();
    const released: ModuleEntry = {
      ...dentists,
      entry: '/modules/dentists/1.1.0-0123456789ab/remoteEntry.js',
      release: '1.1.0-0123456789ab',
      integrity: 'sha384-abc',
    };
    registerModules([released]);
    expect(registerRemotes).toHaveBeenLastCalledWith(
      [{ name: 'mf_dentists', entry: `${window.location.origin}${released.entry}` }],
      { force: true },
    );
    registerModules([released]);
    expect(registerRemotes).toHaveBeenCalledTimes(1);
    registerModules([released], true);
    expect(registerRemotes).toHaveBeenCalledTimes(2);
  });

  it("loads a release's entry script with the integrity the registry recorded, and others as they are", () => {
    const plugins = jest.mocked(registerPlugins).mock.calls[0]?.[0] ?? [];
    const integrity = plugins.find((plugin) => plugin.name === 'module-integrity');
    const script = integrity?.createScript?.({
      url: `${window.location.origin}/modules/dentists/1.1.0-0123456789ab/remoteEntry.js?retry=1`,
      attrs: {},
    }) as HTMLScriptElement;
    expect(script.integrity).toBe('sha384-abc');
    expect(script.crossOrigin).toBe('anonymous');
    expect(
      integrity?.createScript?.({
        url: `${window.location.origin}/modules/dentists/remoteEntry.js`,
        attrs: {},
      }),
    ).toBeUndefined();
  });
});
