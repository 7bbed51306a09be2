import { z } from 'zod';
import { LOGIN_REQUIRED_MESSAGE } from './errors';
import { ROLES, type Role } from './roles';

/** Sign-in with a username or an e-mail address (spec §2, §5). */
export const loginRequestSchema = z.object({
  username: z.string().trim().min(1, LOGIN_REQUIRED_MESSAGE).max(254),
  password: z.string().min(1, LOGIN_REQUIRED_MESSAGE).max(1024),
  remember: z.boolean().optional().default(false),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** A user as it travels on the wire (snake_case, spec §3). */
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

/** The login and refresh answer: `access_token` (or `token`, spec §3) and the user. */
export const authResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  user: wireUserSchema,
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

/** A user as the browser uses it after login (spec §3). */
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
