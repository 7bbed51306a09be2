import { IDLE_TIMEOUT_DEFAULT, idleSignOutMessage, settingsQueries, useAuthStore } from '@dental/shared';
import { useQuery } from '@dental/shared/kit';
import { useEffect, useRef } from 'react';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'mousemove'] as const;
const CHECK_EVERY_MS = 15_000;

/**
 * The clinic's idle sign-out (Settings, Security): a session left that many minutes without a key,
 * click, scroll or pointer move is signed out, and the sign-in page says why. While the user is active
 * the access token is renewed, so the server never takes a working session for an idle one.
 */
export function IdleSignOut() {
  const signOutIdle = useAuthStore((state) => state.signOutIdle);
  const keepAlive = useAuthStore((state) => state.keepAlive);
  // The Settings screen's read: a saved idle time applies here at once.
  const settings = useQuery({ ...settingsQueries.practice(), staleTime: 5 * 60_000 });
  const minutes = settings.data?.idleTimeoutMinutes ?? IDLE_TIMEOUT_DEFAULT;
  const lastActivity = useRef(Date.now());

  useEffect(() => {
    const onActivity = () => {
      lastActivity.current = Date.now();
      void keepAlive();
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    const timer = window.setInterval(() => {
      if (Date.now() - lastActivity.current >= minutes * 60_000) {
        void signOutIdle(idleSignOutMessage(minutes));
      }
    }, CHECK_EVERY_MS);
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
      window.clearInterval(timer);
    };
  }, [minutes, keepAlive, signOutIdle]);

  return null;
}
