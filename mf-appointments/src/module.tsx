import { defineModule } from '@dental/shared';

/** The module's description (its `./module` entry); each screen's code loads on its first visit. */
export default defineModule(
  'appointments',
  { version: __PACKAGE_VERSION__, buildTime: __BUILD_TIME__ },
  {
    '/appointments': () => import('./pages/AppointmentsPage'),
    '/waitlist': () => import('./pages/WaitlistPage'),
    '/requests': () => import('./pages/RequestsPage'),
  },
);
