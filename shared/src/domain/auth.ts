import { z } from 'zod';
import { LOGIN_REQUIRED_MESSAGE } from './errors';
import { ROLES, type Role } from './roles';

/** Sign-in with a username or an e-mail address (docs/product.md, Screens; Validation rules). */
export const loginRequestSchema = z.object({
  username: z.string().trim().min(1, LOGIN_REQUIRED_MESSAGE).max(254),
  password: z.string().min(1, LOGIN_REQUIRED_MESSAGE).max(1024),
  remember: z.boolean().optional().default(false),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** A user as it travels on the wire (snake_case, docs/product.md, Records and their fields). */
export const wireUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  is_active: z.boolean(),
  last_login: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  dentist_id: z.number().int().nullable(),
  clinic_id: z.number().int(),
  clinic_name: z.string(),
  /** Moves on with every visible change: sent back in If-Match (liveDesk.ts). */
  version: z.number().int(),
});
export type WireUser = z.infer<typeof wireUserSchema>;

/** The login and refresh answer: `access_token` (or `token`, docs/product.md, Records and their fields) and the user. */
export const authResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  user: wireUserSchema,
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

/** A user as the browser uses it after login (docs/product.md, Records and their fields). */
export interface SessionUser {
  id: number;
  username: string;
  email: string;
  name: string;
  role: Role;
  isActive: boolean;
  lastLogin: string | null;
  createdAt: string;
  updatedAt: string;
  dentistId: number | null;
  clinicId: number;
  clinicName: string;
}

export function toSessionUser(user: WireUser): SessionUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    name: user.name,
    role: user.role,
    isActive: user.is_active,
    lastLogin: user.last_login,
    createdAt: user.created_at,
    updatedAt: user.updated_at,
    dentistId: user.dentist_id,
    clinicId: user.clinic_id,
    clinicName: user.clinic_name,
  };
}

/**
 * A second factor (an authenticator app, TOTP RFC 6238) and the clinic's policy for it. With a factor
 * on, or a policy covering a user who has none, the password step answers a challenge instead of a
 * session: a short-lived `mfa_token` that opens nothing but the next step.
 */
export const MFA_POLICIES = ['none', 'admins', 'all'] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];
export const MFA_POLICY_LABELS: Record<MfaPolicy, string> = {
  none: 'Nobody',
  admins: 'Administrators',
  all: 'All staff',
};

/** Whether the clinic's policy asks this role for a second factor. */
export function mfaPolicyCovers(policy: MfaPolicy, role: Role): boolean {
  return policy === 'all' || (policy === 'admins' && role === 'admin');
}

/** A password-only session ended at its refresh because the clinic now requires a second factor. */
export const MFA_NOW_REQUIRED_MESSAGE =
  'Your clinic now requires two-step sign-in. Sign in again to set it up.';

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** How long the password step's `mfa_token` opens the second step. */
export const MFA_TOKEN_SECONDS = 5 * 60;

export const TOTP_CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app';
export const WRONG_CODE_MESSAGE = 'That code is not right, or it was already used. Try the next one.';
export const WRONG_RECOVERY_CODE_MESSAGE = 'That recovery code is not right, or it was already used.';
export const MFA_TOKEN_EXPIRED_MESSAGE = 'The sign-in took too long. Please enter your password again.';

/** A code as typed: spaces and dashes people copy with it do not count. */
const typedCode = z.string().transform((value) => value.replace(/[\s-]/g, ''));
export const totpCodeString = typedCode.pipe(z.string().regex(/^\d{6}$/, TOTP_CODE_MESSAGE));
export const recoveryCodeString = typedCode.pipe(
  z
    .string()
    .min(1, 'Enter one of your recovery codes')
    .max(64, WRONG_RECOVERY_CODE_MESSAGE)
    .transform((value) => value.toLowerCase()),
);

/** The password step's answer when a second step is needed. */
export const mfaChallengeSchema = z.union([
  /** A factor is on: send a code (POST /auth/mfa/verify). */
  z.object({ mfa_required: z.literal(true), mfa_token: z.string() }),
  /** The clinic requires a factor and the user has none: set one up before anything else. */
  z.object({ mfa_enrollment_required: z.literal(true), mfa_token: z.string() }),
  /**
   * The password was chosen by someone else (an imported clinic's one-time password): choose your
   * own first (POST /auth/password/choose).
   */
  z.object({ password_change_required: z.literal(true), mfa_token: z.string() }),
]);
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

/** POST /auth/mfa/verify: the challenge's token and a code from the app, or a recovery code. */
export const mfaVerifySchema = z
  .object({
    mfa_token: z.string().min(1).max(4096),
    code: totpCodeString.optional(),
    recovery_code: recoveryCodeString.optional(),
  })
  .strict()
  .refine((body) => (body.code === undefined) !== (body.recovery_code === undefined), {
    message: 'Send either a code from the app or a recovery code',
    path: ['code'],
  });
export type MfaVerifyRequest = z.input<typeof mfaVerifySchema>;

/** The current password, asked again before a factor is turned on or off or codes are renewed. */
const currentPassword = z.string().min(1, 'Enter your current password').max(1024);

/**
 * POST /auth/mfa/totp/setup: signed in, with the password (and a code of the factor in use, when one
 * is on: the new key replaces it once confirmed); at the sign-in's enrolment step, with nothing.
 */
export const totpSetupRequestSchema = z
  .object({
    password: currentPassword.optional(),
    code: totpCodeString.optional(),
    recovery_code: recoveryCodeString.optional(),
  })
  .strict();
export type TotpSetupRequest = z.input<typeof totpSetupRequestSchema>;
export const totpSetupSchema = z.object({ secret: z.string(), otpauth_url: z.string() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;

/** POST /auth/mfa/totp/enable: the first code confirms the key. */
export const totpEnableSchema = z
  .object({ code: totpCodeString, end_other_sessions: z.boolean().optional().default(false) })
  .strict();
export type TotpEnableRequest = z.input<typeof totpEnableSchema>;

/** DELETE /auth/mfa/totp and POST /auth/mfa/recovery-codes: the password and a code (or a recovery code). */
export const factorChangeSchema = z
  .object({
    password: currentPassword,
    code: totpCodeString.optional(),
    recovery_code: recoveryCodeString.optional(),
    end_other_sessions: z.boolean().optional().default(false),
  })
  .strict();
export type FactorChangeRequest = z.input<typeof factorChangeSchema>;

export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });

/** GET /auth/mfa: the signed-in user's factors. */
export const factorStatusSchema = z.object({
  totp: z.boolean(),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.number().int(),
  /** Whether the clinic's policy asks this user for a factor (turning it off is then refused). */
  required: z.boolean(),
});
export type FactorStatus = z.infer<typeof factorStatusSchema>;
export const MFA_REQUIRED_CANNOT_DISABLE =
  'Your clinic requires a second factor: it cannot be turned off. Set up a new one instead.';

/** A signed-in session as GET /auth/sessions lists it. */
export const sessionSchema = z.object({
  id: z.string(),
  browser: z.string(),
  system: z.string(),
  ip: z.string(),
  created_at: z.string(),
  last_used_at: z.string(),
  expires_at: z.string(),
  remember: z.boolean(),
  factor: z.enum(['password', 'totp', 'recovery_code']),
  /** The session this request was made in ("this device"). */
  current: z.boolean(),
});
export type SignedInSession = z.infer<typeof sessionSchema>;
export const sessionListSchema = z.object({ data: z.array(sessionSchema) });

export const AUTH_URLS = {
  mfa: '/auth/mfa',
  mfaVerify: '/auth/mfa/verify',
  totpSetup: '/auth/mfa/totp/setup',
  totpEnable: '/auth/mfa/totp/enable',
  totp: '/auth/mfa/totp',
  recoveryCodes: '/auth/mfa/recovery-codes',
  sessions: '/auth/sessions',
  session: (id: string) => `/auth/sessions/${encodeURIComponent(id)}`,
  userSessions: (userId: number) => `/api/users/${userId}/sessions`,
  userFactor: (userId: number) => `/api/users/${userId}/mfa`,
  choosePassword: '/auth/password/choose',
} as const;
