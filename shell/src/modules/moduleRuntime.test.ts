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
  enabled: true,
};

describe('registering the modules with the federation runtime', () => {
  it('gives the runtime its retry plugin once, before the first modules', () => {
    registerModules([dentists]);
    registerModules([dentists], true);
    expect(registerPlugins).toHaveBeenCalledTimes(1);
    expect(jest.mocked(registerPlugins).mock.calls[0]?.[0]).toEqual([
      expect.objectContaining({ name: 'retry-plugin' }),
    ]);
    expect(jest.mocked(registerPlugins).mock.invocationCallOrder[0]).toBeLessThan(
      jest.mocked(registerRemotes).mock.invocationCallOrder[0] ?? 0,
    );
    expect(registerRemotes).toHaveBeenLastCalledWith(
      [{ name: 'mf_dentists', entry: `${window.location.origin}/modules/dentists/mf-manifest.json` }],
      { force: true },
    );
  });
});
