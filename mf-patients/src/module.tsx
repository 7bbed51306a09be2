import { defineModule, MODULE_CATALOG, type ModuleRoute } from '@dental/shared';
import { TeamOutlined } from '@dental/shared/ui';
import type { ReactNode } from 'react';

const catalog = MODULE_CATALOG.patients;

const loaders: Record<string, ModuleRoute['load']> = {
  '/patients': () => import('./pages/PatientsPage'),
};

const icons: Record<string, ReactNode> = {
  '/patients': <TeamOutlined />,
};

/** The module's description (its `./module` entry); each screen's code loads on its first visit. */
export default defineModule({
  id: 'patients',
  title: catalog.title,
  version: __PACKAGE_VERSION__,
  buildTime: __BUILD_TIME__,
  routes: catalog.pages.map((page) => ({
    path: page.path,
    permission: page.permission,
    load: loaders[page.path] ?? (() => Promise.reject(new Error(`No screen for ${page.path}`))),
  })),
  nav: catalog.pages.map((page, index) => ({
    path: page.path,
    label: page.label,
    permission: page.permission,
    icon: icons[page.path],
    order: index,
  })),
});
