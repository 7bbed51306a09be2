import { MODULE_CATALOG, MODULE_IDS, type ModuleEntry, type ModuleId, type Role } from '@dental/shared';
import { buildNavigation, enabledPages } from './navigation';

const entry = (id: ModuleId): ModuleEntry => ({
  id,
  title: MODULE_CATALOG[id].title,
  container: MODULE_CATALOG[id].container,
  entry: `/modules/${id}/mf-manifest.json`,
  release: null,
  integrity: null,
  version: '1.0.0',
  enabled: true,
});
const ALL = MODULE_IDS.map(entry);
const without = (...ids: ModuleId[]) => ALL.filter((module) => !ids.includes(module.id));
const labels = (role: Role | undefined, enabled: ModuleEntry[] = ALL) =>
  buildNavigation(role, enabled).map((item) => item.label);

describe('sidebar navigation', () => {
  it('admin sees every screen and the module switchboard', () => {
    expect(labels('admin')).toEqual([
      'Dashboard',
      'Appointments',
      'Waitlist',
      'Requests',
      'Patients',
      'Recall',
      'Dentists',
      'Availability',
      'Calendar',
      'Users',
      'Audit',
      'Settings',
      'Modules',
    ]);
  });

  it('receptionist sees appointments, patients, calendar and settings', () => {
    expect(labels('receptionist')).toEqual([
      'Dashboard',
      'Appointments',
      'Waitlist',
      'Requests',
      'Patients',
      'Recall',
      'Calendar',
      'Settings',
    ]);
  });

  it('dentist also sees availability, but not dentists, users nor modules', () => {
    expect(labels('dentist')).toEqual([
      'Dashboard',
      'Appointments',
      'Waitlist',
      'Requests',
      'Patients',
      'Recall',
      'Availability',
      'Calendar',
      'Settings',
    ]);
  });

  it('no role (nobody signed in) sees only the dashboard', () => {
    expect(labels(undefined)).toEqual(['Dashboard']);
  });

  it('gives each entry its path, icon and module', () => {
    const items = buildNavigation('admin', ALL);
    expect(items[0]).toEqual({ path: '/', label: 'Dashboard', icon: 'dashboard', moduleId: null });
    expect(items.find((item) => item.label === 'Patients')).toEqual({
      path: '/patients',
      label: 'Patients',
      icon: 'team',
      moduleId: 'patients',
    });
    expect(items.find((item) => item.label === 'Availability')).toMatchObject({
      path: '/availability',
      moduleId: 'scheduling',
    });
    expect(items.find((item) => item.label === 'Users')).toMatchObject({ path: '/users', moduleId: 'admin' });
    expect(items.find((item) => item.label === 'Audit')).toMatchObject({
      path: '/audit',
      icon: 'audit',
      moduleId: 'admin',
    });
    expect(items.at(-1)).toEqual({ path: '/modules', label: 'Modules', icon: 'modules', moduleId: null });
    const paths = items.map((item) => item.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('a switched-off module disappears for every role; the dashboard and switchboard stay', () => {
    expect(labels('admin', without('patients'))).not.toContain('Patients');
    expect(labels('receptionist', without('patients'))).toEqual([
      'Dashboard',
      'Appointments',
      'Waitlist',
      'Requests',
      'Calendar',
      'Settings',
    ]);
    expect(labels('dentist', without('scheduling'))).toEqual([
      'Dashboard',
      'Appointments',
      'Waitlist',
      'Requests',
      'Patients',
      'Recall',
      'Settings',
    ]);
    expect(labels('admin', without('admin'))).toEqual([
      'Dashboard',
      'Appointments',
      'Waitlist',
      'Requests',
      'Patients',
      'Recall',
      'Dentists',
      'Availability',
      'Calendar',
      'Modules',
    ]);
    expect(labels('admin', [])).toEqual(['Dashboard', 'Modules']);
    expect(labels('receptionist', [])).toEqual(['Dashboard']);
  });

  it('keeps the product order whatever order the server lists modules in', () => {
    expect(labels('admin', [...ALL].reverse())).toEqual(labels('admin', ALL));
  });

  it('enabledPages lists the screens of enabled modules whatever the role', () => {
    expect(enabledPages(ALL).map(({ page }) => page.path)).toEqual([
      '/appointments',
      '/waitlist',
      '/requests',
      '/patients',
      '/recall',
      '/dentists',
      '/availability',
      '/calendar',
      '/users',
      '/audit',
      '/settings',
    ]);
    expect(enabledPages(without('scheduling', 'admin')).map(({ moduleId }) => moduleId)).toEqual([
      'appointments',
      'appointments',
      'appointments',
      'patients',
      'patients',
      'dentists',
    ]);
    expect(enabledPages([])).toEqual([]);
  });
});
