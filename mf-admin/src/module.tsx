import { defineModule } from '@dental/shared';

/** The module's description (its `./module` entry); each screen's code loads on its first visit. */
export default defineModule(
  'admin',
  { version: __PACKAGE_VERSION__, buildTime: __BUILD_TIME__ },
  {
    '/users': () => import('./pages/UsersPage'),
    '/audit': () => import('./pages/AuditPage'),
    '/settings': () => import('./pages/SettingsPage'),
  },
);
