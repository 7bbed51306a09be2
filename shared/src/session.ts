/**
 * The session (`@dental/shared/session`): the API client, signing in and out, the stored session, and
 * the sign-in form's rules. The sign-in page loads this entry alone; the rest of `@dental/shared` (the
 * domain's other rules, the shared reads and their query library) loads after sign-in
 * (docs/architecture.md, Shared). `@dental/shared` exports all of it too, as the same instances.
 */
export * from './api/client';
export * from './auth/authApi';
export * from './auth/authStore';
export * from './auth/storage';
export {
  loginRequestSchema,
  MFA_TOKEN_EXPIRED_MESSAGE,
  recoveryCodeString,
  TOTP_CODE_MESSAGE,
  totpCodeString,
} from './domain/auth';
export { STORAGE_KEYS } from './domain/constants';
export { LOGIN_REQUIRED_MESSAGE } from './domain/errors';
export { ACTIVITY_SEEN_URL } from './domain/liveDesk';
export { passwordString } from './domain/users';
