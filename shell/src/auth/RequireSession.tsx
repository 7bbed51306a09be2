import { useAuthStore } from '@dental/shared/session';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { LoadingScreen } from './LoadingScreen';

/** All routes but /login need a session; without one the user signs in and comes back here. */
export function RequireSession({ children }: { children: ReactNode }) {
  const status = useAuthStore((state) => state.status);
  const signedOut = useAuthStore((state) => state.signedOut);
  const location = useLocation();
  if (status === 'loading') return <LoadingScreen />;
  // After a sign-out the next sign-in starts on the dashboard, not on the page the last user left.
  if (status === 'anonymous')
    return <Navigate to="/login" replace state={signedOut ? null : { from: location }} />;
  return <>{children}</>;
}
