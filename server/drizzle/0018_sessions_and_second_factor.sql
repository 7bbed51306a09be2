-- Sessions staff can see and end, a second factor, and the clinic's policy for it.

-- A signed-in session: one sign-in and every refresh token its rotations issue (their family). Its
-- row says where and when it began and was last used, and when and why it ended.
CREATE TABLE "user_sessions" (
  "id" text PRIMARY KEY NOT NULL,
  "clinic_id" integer NOT NULL REFERENCES "clinics"("id"),
  "user_id" integer NOT NULL,
  "user_agent" text DEFAULT '' NOT NULL,
  "ip" text DEFAULT '' NOT NULL,
  "remember" boolean NOT NULL,
  "factor" text DEFAULT 'password' NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "ended_at" timestamp with time zone,
  "ended_reason" text,
  CONSTRAINT "user_sessions_user_fk" FOREIGN KEY ("clinic_id", "user_id") REFERENCES "users"("clinic_id", "id") ON DELETE CASCADE,
  CONSTRAINT "user_sessions_factor_check" CHECK ("factor" IN ('password', 'totp', 'recovery_code'))
);--> statement-breakpoint
CREATE INDEX "user_sessions_user_idx" ON "user_sessions" ("clinic_id", "user_id", "created_at" DESC);--> statement-breakpoint
-- The sessions signed in before sessions had rows: one row a refresh token family.
INSERT INTO "user_sessions" ("id", "clinic_id", "user_id", "remember", "created_at", "last_used_at", "expires_at", "ended_at", "ended_reason")
SELECT "family", "clinic_id", "user_id", bool_or("remember"), min("created_at"), max("created_at"), max("expires_at"),
  CASE WHEN bool_and("revoked_at" IS NOT NULL) THEN max("revoked_at") END,
  CASE WHEN bool_and("revoked_at" IS NOT NULL) THEN 'signed_out' END
FROM "refresh_tokens" rt
WHERE EXISTS (SELECT 1 FROM "users" u WHERE u."clinic_id" = rt."clinic_id" AND u."id" = rt."user_id")
GROUP BY "family", "clinic_id", "user_id";--> statement-breakpoint

-- A user's authenticator (TOTP, RFC 6238): the key being set up until a first code confirms it, then
-- the key in use and the last time step a code was accepted for, so no code is accepted twice.
CREATE TABLE "user_factors" (
  "clinic_id" integer NOT NULL,
  "user_id" integer NOT NULL,
  "totp_pending_secret" text,
  "totp_secret" text,
  "totp_enabled_at" timestamp with time zone,
  "totp_last_step" bigint DEFAULT 0 NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "user_factors_pk" PRIMARY KEY ("clinic_id", "user_id"),
  CONSTRAINT "user_factors_user_fk" FOREIGN KEY ("clinic_id", "user_id") REFERENCES "users"("clinic_id", "id") ON DELETE CASCADE,
  CONSTRAINT "user_factors_enabled_check" CHECK (("totp_secret" IS NULL) = ("totp_enabled_at" IS NULL))
);--> statement-breakpoint

-- Single-use recovery codes, kept only as salted hashes; a used one keeps its row, marked used.
CREATE TABLE "recovery_codes" (
  "id" serial PRIMARY KEY NOT NULL,
  "clinic_id" integer NOT NULL,
  "user_id" integer NOT NULL,
  "salt" text NOT NULL,
  "code_hash" text NOT NULL,
  "used_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "recovery_codes_user_fk" FOREIGN KEY ("clinic_id", "user_id") REFERENCES "users"("clinic_id", "id") ON DELETE CASCADE
);--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" ("clinic_id", "user_id") WHERE "used_at" IS NULL;--> statement-breakpoint

-- Who must sign in with a second factor: nobody, the administrators, or every member of staff.
ALTER TABLE "clinic_settings" ADD COLUMN "mfa_required" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD CONSTRAINT "clinic_settings_mfa_required_check" CHECK ("mfa_required" IN ('none', 'admins', 'all'));--> statement-breakpoint

-- A user's own factor changes are, like sign-ins and records opened, not changes a screen shows. An
-- ended session and an administrator's reset of a factor (which ends the user's sessions) are
-- announced: every API process must hear at once that those sessions' next calls are refused.
CREATE OR REPLACE FUNCTION audit_log_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action NOT IN ('access_denied', 'deny', 'export', 'login', 'login_failed', 'login_locked', 'logout',
    'view', 'mfa_enabled', 'mfa_disabled', 'recovery_codes_renewed') THEN
    PERFORM announce_change(NEW.clinic_id, NEW.user_id, NEW.entity, NEW.entity_id, NEW.action, NEW.id);
  END IF;
  RETURN NULL;
END
$$;
