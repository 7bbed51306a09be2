CREATE TABLE "outbox" (
	"clinic_id" integer NOT NULL,
	"id" serial NOT NULL,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"appointment_id" integer,
	"patient_id" integer,
	"recipient" text NOT NULL,
	"subject" text,
	"body" text NOT NULL,
	"visit_at" timestamp with time zone,
	"due_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"claimed_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_clinic_id_id_pk" PRIMARY KEY("clinic_id","id"),
	CONSTRAINT "outbox_state_check" CHECK ("outbox"."state" in ('pending', 'sent', 'failed', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "reminder_lead_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("next_attempt_at") WHERE "outbox"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "outbox_appointment_idx" ON "outbox" USING btree ("clinic_id","appointment_id");--> statement-breakpoint
CREATE INDEX "outbox_recent_idx" ON "outbox" USING btree ("clinic_id","created_at");