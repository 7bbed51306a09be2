import { STORAGE_KEYS, useAuthStore } from '@dental/shared/session';
import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { LoadingScreen } from './auth/LoadingScreen';
import { LoginPage } from './auth/LoginPage';
import { RequireSession } from './auth/RequireSession';

// Everything behind sign-in (layout, UI kit, modules) loads only once it is needed.
const SignedInApp = lazy(() => import('./layout/SignedInApp'));

export function App() {
  const initialize = useAuthStore((state) => state.initialize);
  useEffect(() => {
    void initialize();
  }, [initialize]);

  // A remembered session lives in localStorage, shared by the browser's tabs: signing out in one
  // signs out all of them at once.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea !== window.localStorage) return;
      if (event.key !== null && event.key !== STORAGE_KEYS.token) return;
      const { status, remember, clear } = useAuthStore.getState();
      if (status === 'authenticated' && remember && !window.localStorage.getItem(STORAGE_KEYS.token)) clear();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  return (
    <BrowserRouter>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route
          path="*"
          element={
            <RequireSession>
              <Suspense fallback={<LoadingScreen />}>
                <SignedInApp />
              </Suspense>
            </RequireSession>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}
