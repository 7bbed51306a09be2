import { defineModule } from '@dental/shared';

/** The module's description (its `./module` entry); each screen's code loads on its first visit. */
export default defineModule(
  'patients',
  { version: __PACKAGE_VERSION__, buildTime: __BUILD_TIME__ },
  {
    '/patients': () => import('./pages/PatientsPage'),
    '/recall': () => import('./pages/RecallPage'),
  },
);
