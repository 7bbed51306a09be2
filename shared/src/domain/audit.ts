import { z } from 'zod';
import { dateString, listQuerySchema, pageSchema } from './validation';

/** GET /api/audit (admins): the clinic's audit records, newest first, filtered. */
export const AUDIT_URL = '/api/audit';
/** GET /api/audit/csv (admins): every record the same filters show, as a CSV download. */
export const AUDIT_CSV_URL = '/api/audit/csv';
/** GET /api/audit/verify (admins): checks the clinic's chain of audit records. */
export const AUDIT_VERIFY_URL = '/api/audit/verify';

/** Changes of a record: the dashboard's activity and the bell tell them. */
const RECORD_CHANGES = ['create', 'update', 'delete', 'status_change'] as const;
/** Who signed in or out, who was refused, and who opened a record. */
const SIGN_IN_ACTIONS = ['login', 'login_failed', 'login_locked', 'logout', 'view', 'access_denied'] as const;
/** Changes of the clinic as a whole: its data moved in or out, an account or a module switched. */
const CLINIC_CHANGES = [
  'export',
  'import',
  'activate',
  'deactivate',
  'module_enabled',
  'module_disabled',
] as const;
/** Ended sessions and second-factor changes. */
const ACCOUNT_SECURITY_ACTIONS = [
  'session_ended',
  'mfa_enabled',
  'mfa_disabled',
  'mfa_reset',
  'recovery_codes_renewed',
] as const;

/** A patient told or called about coming back: a recall reminder or call, a freed time offered. */
const PATIENT_CONTACTS = ['recall_reminded', 'recall_contacted', 'waitlist_offered'] as const;

/**
 * The security log's actions: sign-ins and sign-outs, refused calls, records opened, ended sessions
 * and second-factor changes. The audit screen shows them; the dashboard's activity and the bell,
 * which tell what changed in the clinic, leave them out.
 */
export const SECURITY_ACTIONS = [...SIGN_IN_ACTIONS, ...ACCOUNT_SECURITY_ACTIONS] as const;

/** Every action the audit log records, as the server writes them, in the audit screen's order. */
export const AUDIT_ACTIONS = [
  ...RECORD_CHANGES,
  ...SIGN_IN_ACTIONS,
  ...CLINIC_CHANGES,
  ...ACCOUNT_SECURITY_ACTIONS,
  ...PATIENT_CONTACTS,
] as const;

export const auditQuerySchema = listQuerySchema
  .pick({ page: true, limit: true })
  .extend({
    user_id: z.coerce.number().int().positive('user_id is a user id').optional(),
    /** The records about one patient: their record's changes and who opened it. */
    patient_id: z.coerce.number().int().positive('patient_id is a patient id').optional(),
    action: z.string().trim().max(40, 'action is at most 40 characters').optional(),
    /** From this day on, in the clinic's time zone. */
    from: dateString.optional(),
    /** Up to and including this day, in the clinic's time zone. */
    to: dateString.optional(),
  })
  .strict();
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditRecordSchema = z.object({
  id: z.number().int(),
  /** Its place in the clinic's chain; 0 for a record written in the last few seconds, not sealed yet. */
  place: z.number().int(),
  created_at: z.string(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;
export const auditPageSchema = pageSchema(auditRecordSchema);

export const auditChainCheckSchema = z.object({
  records: z.number().int(),
  holds: z.boolean(),
  /** The first record that does not fit its chain: edited or its neighbour removed. */
  first_unfit: z.object({ id: z.number().int(), place: z.number().int() }).nullable(),
});
export type AuditChainCheckAnswer = z.infer<typeof auditChainCheckSchema>;
