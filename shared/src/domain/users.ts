import { z } from 'zod';
import { wireUserSchema } from './auth';
import { ROLES } from './roles';
import { emailString, listQuerySchema, pageSchema, requiredText } from './validation';

/** User management (docs/product.md, Screens: Users; Validation rules): the shapes the admin's screen and the server share. */

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const USER_SORTS = [
  'name',
  '-name',
  'username',
  '-username',
  'role',
  '-role',
  'created_at',
  '-created_at',
  'last_login',
  '-last_login',
] as const;
export type UserSort = (typeof USER_SORTS)[number];

export const usernameString = z
  .string()
  .trim()
  .min(USERNAME_MIN, `At least ${USERNAME_MIN} characters`)
  .max(USERNAME_MAX, `At most ${USERNAME_MAX} characters`)
  .regex(/^[A-Za-z0-9._-]+$/, 'Use letters, digits, dots, dashes and underscores only');

export const passwordString = z
  .string()
  .min(PASSWORD_MIN, `At least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters`);

/** A dentist account's link to its dentist record; `null` unlinks it. */
const dentistIdField = z.number().int('dentist_id is a whole number').positive().max(2147483647).nullable();

/**
 * Fields the server owns: a client may send them back (a PUT of what GET answered) but they are
 * ignored, never stored.
 */
const serverOwnedFields = {
  id: z.unknown().optional().describe('Ignored: the server owns it'),
  clinic_id: z.unknown().optional().describe('Ignored: the server owns it'),
  clinic_name: z.unknown().optional().describe('Ignored: the server owns it'),
  created_at: z.unknown().optional().describe('Ignored: the server owns it'),
  updated_at: z.unknown().optional().describe('Ignored: the server owns it'),
  last_login: z.unknown().optional().describe('Ignored: the server owns it'),
  lastLogin: z.unknown().optional().describe('Ignored: the server owns it'),
  version: z.unknown().optional().describe('Ignored: sent in If-Match, not the body'),
};

const userFields = {
  name: requiredText(100),
  username: usernameString,
  email: emailString,
  role: z.enum(ROLES, { message: `Role must be one of ${ROLES.join(', ')}` }),
  isActive: z.boolean().optional(),
  /** The wire's spelling of isActive (docs/product.md, Records and their fields); either may be sent. */
  is_active: z.boolean().optional(),
  dentist_id: dentistIdField.optional(),
  ...serverOwnedFields,
};

export interface UserWriteFields {
  name: string;
  username: string;
  email: string;
  role: (typeof ROLES)[number];
  /** Absent: true on creation, unchanged on an update. */
  isActive: boolean | undefined;
  /** Absent: none on creation, unchanged on an update; only a dentist account carries one. */
  dentistId: number | null | undefined;
}

type RawUserFields = {
  name: string;
  username: string;
  email: string;
  role: (typeof ROLES)[number];
  isActive?: boolean;
  is_active?: boolean;
  dentist_id?: number | null;
};

/** The fields a write takes, by their names on the server: `is_active` is the spec's other spelling. */
function toWriteFields(raw: RawUserFields): UserWriteFields {
  const { name, username, email, role } = raw;
  return { name, username, email, role, isActive: raw.isActive ?? raw.is_active, dentistId: raw.dentist_id };
}

function dentistLinkIsForDentists(raw: RawUserFields): boolean {
  return raw.role === 'dentist' || raw.dentist_id === undefined || raw.dentist_id === null;
}
const DENTIST_LINK_MESSAGE = 'Only a dentist account can be linked to a dentist';

/** POST /api/users: every field of the User form is required (docs/product.md, Validation rules). */
export const userCreateSchema = z
  .object({ ...userFields, password: passwordString })
  .strict()
  .refine(dentistLinkIsForDentists, { message: DENTIST_LINK_MESSAGE, path: ['dentist_id'] })
  .transform((raw) => ({ ...toWriteFields(raw), password: raw.password }));
export type UserCreateRequest = z.input<typeof userCreateSchema>;
export type UserCreate = z.output<typeof userCreateSchema>;

/** PUT /api/users/:id: as creation, but the password may be left blank to keep the current one. */
export const userUpdateSchema = z
  .object({
    ...userFields,
    password: z
      .union([z.literal(''), passwordString])
      .optional()
      .nullable(),
  })
  .strict()
  .refine(dentistLinkIsForDentists, { message: DENTIST_LINK_MESSAGE, path: ['dentist_id'] })
  .transform((raw) => ({ ...toWriteFields(raw), password: raw.password ? raw.password : null }));
export type UserUpdateRequest = z.input<typeof userUpdateSchema>;
export type UserUpdate = z.output<typeof userUpdateSchema>;

/** PATCH /api/users/:id/status: `{ isActive }` (docs/product.md, API calls); `is_active` is taken too. */
export const userStatusSchema = z
  .object({ isActive: z.boolean().optional(), is_active: z.boolean().optional() })
  .strict()
  .refine((raw) => raw.isActive !== undefined || raw.is_active !== undefined, {
    message: 'isActive is required (true or false)',
    path: ['isActive'],
  })
  .transform((raw) => ({ isActive: (raw.isActive ?? raw.is_active) as boolean }));
export type UserStatusRequest = z.input<typeof userStatusSchema>;

export const USER_STATUS_FILTERS = ['active', 'inactive'] as const;

/** GET /api/users: search name, username and e-mail; filter by role and status; sort. */
export const userListQuerySchema = listQuerySchema.extend({
  role: z.enum(ROLES, { message: `role must be one of ${ROLES.join(', ')}` }).optional(),
  status: z.enum(USER_STATUS_FILTERS, { message: 'status must be active or inactive' }).optional(),
  sort: z.enum(USER_SORTS, { message: `sort must be one of ${USER_SORTS.join(', ')}` }).optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

export const userPageSchema = pageSchema(wireUserSchema);
export type UserPage = z.infer<typeof userPageSchema>;

/** POST /auth/change-password: your own password, the current one required; the new one 8-128 and not the same. */
export const passwordChangeSchema = z
  .object({
    current_password: z.string().min(1, 'This field is required').max(PASSWORD_MAX),
    new_password: passwordString,
  })
  .strict()
  .refine((change) => change.current_password !== change.new_password, {
    message: 'The new password must differ from the current one',
    path: ['new_password'],
  });
export type PasswordChangeRequest = z.input<typeof passwordChangeSchema>;

/**
 * POST /auth/password/choose: the sign-in's token of an account whose password someone else chose,
 * and the account's own new password.
 */
export const choosePasswordSchema = z
  .object({ mfa_token: z.string().min(1).max(4096), new_password: passwordString })
  .strict();
export type ChoosePasswordRequest = z.input<typeof choosePasswordSchema>;

export const PASSWORD_CHANGED_MESSAGE =
  'Your password was changed. Your other sessions have been signed out.';
export const WRONG_CURRENT_PASSWORD = 'The current password is not right';

/** The message of a session ended for inactivity (the browser and the server say the same). */
export const idleSignOutMessage = (minutes: number) =>
  `You were signed out after ${minutes} minutes without activity.`;
