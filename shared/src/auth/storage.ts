import type { SessionUser } from '../domain/auth';
import { STORAGE_KEYS } from '../domain/constants';

/**
 * Where the session lives in the browser (docs/product.md, Statuses and how they change; Constants and limits keys `authToken` and `dental_user`).
 * 'Remember me' keeps it in localStorage, which outlives the browser; otherwise sessionStorage,
 * which ends with the browser session.
 */
function stores(): Storage[] {
  const found: Storage[] = [];
  if (typeof window === 'undefined') return found;
  try {
    found.push(window.localStorage, window.sessionStorage);
  } catch {
    // Storage can be blocked by the browser's privacy settings; the session then lives in memory.
  }
  return found;
}

export function readStoredToken(): string | null {
  for (const store of stores()) {
    const token = store.getItem(STORAGE_KEYS.token);
    if (token) return token;
  }
  return null;
}

export function readStoredSession(): { token: string; user: SessionUser; remember: boolean } | null {
  for (const [index, store] of stores().entries()) {
    const token = store.getItem(STORAGE_KEYS.token);
    const rawUser = store.getItem(STORAGE_KEYS.user);
    if (!token || !rawUser) continue;
    try {
      return { token, user: JSON.parse(rawUser) as SessionUser, remember: index === 0 };
    } catch {
      store.removeItem(STORAGE_KEYS.user);
    }
  }
  return null;
}

export function writeStoredSession(token: string, user: SessionUser, remember: boolean): void {
  const [local, session] = stores();
  const [target, other] = remember ? [local, session] : [session, local];
  // The kept store is overwritten, never emptied first: other tabs watch localStorage for a sign-out.
  other?.removeItem(STORAGE_KEYS.token);
  other?.removeItem(STORAGE_KEYS.user);
  target?.setItem(STORAGE_KEYS.token, token);
  target?.setItem(STORAGE_KEYS.user, JSON.stringify(user));
}

export function clearStoredSession(): void {
  for (const store of stores()) {
    store.removeItem(STORAGE_KEYS.token);
    store.removeItem(STORAGE_KEYS.user);
  }
}
