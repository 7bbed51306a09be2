import { defineModule } from '@dental/shared';

/** The module's description (its `./module` entry); each screen's code loads on its first visit. */
export default defineModule(
  'scheduling',
  { version: __PACKAGE_VERSION__, buildTime: __BUILD_TIME__ },
  {
    '/availability': () => import('./pages/AvailabilityPage'),
    '/calendar': () => import('./pages/CalendarPage'),
  },
);
