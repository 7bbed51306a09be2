-- Recurring visits: a series is one booking repeated every N weeks or months, K times or until a
-- date. Its visits are ordinary appointments (the same overlap and open-hours rules hold each one)
-- that name their series and their place in it.

CREATE TABLE "appointment_series" (
  "clinic_id" integer NOT NULL REFERENCES "clinics"("id"),
  "id" serial NOT NULL,
  "every" integer NOT NULL,
  "unit" text NOT NULL,
  -- The rule ends after `count` visits or on `until`, never both.
  "count" integer,
  "until" date,
  "created_by" integer,
  "version" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "appointment_series_pk" PRIMARY KEY ("clinic_id", "id"),
  CONSTRAINT "appointment_series_unit_check" CHECK ("unit" IN ('week', 'month')),
  CONSTRAINT "appointment_series_every_check" CHECK ("every" BETWEEN 1 AND 52),
  CONSTRAINT "appointment_series_end_check" CHECK (("count" IS NULL) <> ("until" IS NULL)),
  CONSTRAINT "appointment_series_count_check" CHECK ("count" IS NULL OR "count" BETWEEN 2 AND 52)
);--> statement-breakpoint
CREATE TRIGGER appointment_series_version BEFORE UPDATE ON appointment_series FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at');--> statement-breakpoint

-- A visit of a series names it and its place in the booking order (1 = the first booked); a visit
-- outside any series has neither. A place is held by one visit of its series.
ALTER TABLE "appointments" ADD COLUMN "series_id" integer;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "series_position" integer;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_series_fk" FOREIGN KEY ("clinic_id", "series_id")
  REFERENCES "appointment_series"("clinic_id", "id");--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_series_position_check"
  CHECK (("series_id" IS NULL) = ("series_position" IS NULL) AND ("series_position" IS NULL OR "series_position" >= 1));--> statement-breakpoint
-- "This and the following" and "3 of 6" read a series' visits by place.
CREATE UNIQUE INDEX "appointments_series_idx" ON "appointments" ("clinic_id", "series_id", "series_position")
  WHERE "series_id" IS NOT NULL;
