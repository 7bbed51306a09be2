import { MODULE_CATALOG, useAuthStore } from '@dental/shared';
import { createQueryClient, KitProvider } from '@dental/shared/kit';
import { UiProvider } from '@dental/shared/ui';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Route, Routes } from 'react-router-dom';
import { IdleSignOut } from '../auth/IdleSignOut';
import { LoadingScreen } from '../auth/LoadingScreen';
import { PermissionGate } from '../auth/PermissionGate';
import { DashboardPage } from '../dashboard/DashboardPage';
import { LiveDesk } from '../live/LiveDesk';
import { ModuleArea } from '../modules/ModuleArea';
import { ModulesUnavailable } from '../modules/ModulesUnavailable';
import { useModulesStore } from '../modules/modulesStore';
import { NotFoundPage } from '../pages/NotFoundPage';
import { AppLayout } from './AppLayout';
import { enabledPages } from './navigation';

// An admin's page, drawn with the kit's table and switches: it loads when an admin opens it.
const ModulesPage = lazy(() =>
  import('../modules/ModulesPage').then(({ ModulesPage }) => ({ default: ModulesPage })),
);

/** Everything behind sign-in: the layout, the dashboard and the clinic's modules. */
export default function SignedInApp() {
  const clinicId = useAuthStore((state) => state.user?.clinicId);
  const status = useModulesStore((state) => state.status);
  const entries = useModulesStore((state) => state.entries);
  const load = useModulesStore((state) => state.load);
  // One client of server state per signed-in session: nothing read for one user is shown to the next.
  const [queryClient] = useState(createQueryClient);

  useEffect(() => {
    if (clinicId !== undefined) void load();
  }, [clinicId, load]);

  const modulesKnown = status === 'ready';

  return (
    <UiProvider>
      <KitProvider client={queryClient}>
        <LiveDesk client={queryClient}>
          <IdleSignOut />
          <Routes>
            <Route element={<AppLayout />}>
              <Route index element={<DashboardPage />} />
              <Route
                path="modules"
                element={
                  <PermissionGate permission="all">
                    <Suspense fallback={<LoadingScreen />}>
                      <ModulesPage />
                    </Suspense>
                  </PermissionGate>
                }
              />
              {enabledPages(entries).map(({ moduleId, page }) => (
                <Route
                  key={page.path}
                  path={`${page.path}/*`}
                  element={<ModuleArea moduleId={moduleId} catalog={MODULE_CATALOG[moduleId]} page={page} />}
                />
              ))}
              <Route
                path="*"
                element={
                  status === 'error' ? (
                    <ModulesUnavailable />
                  ) : modulesKnown ? (
                    <NotFoundPage />
                  ) : (
                    <LoadingScreen />
                  )
                }
              />
            </Route>
          </Routes>
        </LiveDesk>
      </KitProvider>
    </UiProvider>
  );
}
