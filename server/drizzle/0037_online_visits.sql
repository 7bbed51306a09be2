-- Visits booked online (docs/product.md, Online booking): where a visit came from, who confirmed it,
-- and the hash of its private manage link; the requests that reach the desk from the booking page
-- (a booking whose patient could not be matched, a patient asking to be called); how many codes a
-- hold has been sent.
ALTER TABLE "appointments" ADD COLUMN "source" text DEFAULT 'desk' NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "confirmed_by" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "manage_token_hash" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_source_check" CHECK ("source" IN ('desk', 'online'));--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_confirmed_by_check"
  CHECK ("confirmed_by" IN ('desk', 'patient'));--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_manage_token_unique" ON "appointments" ("manage_token_hash")
  WHERE "manage_token_hash" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_holds" ADD COLUMN "code_sends" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TABLE "booking_requests" (
  "clinic_id" integer NOT NULL REFERENCES "clinics"("id"),
  "id" serial NOT NULL,
  "kind" text NOT NULL,
  "appointment_id" integer,
  -- The patient the visit was booked for: a new record made from the request when it was not matched.
  "patient_id" integer,
  -- What the patient gave: name, phone, e-mail, date of birth.
  "contact" jsonb NOT NULL,
  "state" text DEFAULT 'open' NOT NULL,
  "closed_how" text,
  "closed_by" integer,
  "closed_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  CONSTRAINT "booking_requests_pk" PRIMARY KEY ("clinic_id", "id"),
  CONSTRAINT "booking_requests_kind_check" CHECK ("kind" IN ('unmatched', 'call_back')),
  CONSTRAINT "booking_requests_state_check" CHECK ("state" IN ('open', 'closed')),
  CONSTRAINT "booking_requests_closed_check" CHECK (("state" = 'open') = ("closed_at" IS NULL))
);--> statement-breakpoint
CREATE INDEX "booking_requests_open_idx" ON "booking_requests" ("clinic_id", "state", "created_at");
