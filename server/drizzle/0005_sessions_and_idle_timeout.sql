ALTER TABLE "clinic_settings" ADD COLUMN "idle_timeout_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sessions_since" timestamp with time zone;