import { useAuthStore } from '@dental/shared';
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
