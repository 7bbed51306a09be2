-- The waitlist: patients who want a time that is not free yet (a treatment, a dentist or any, some
-- weekdays and a part of the day, between two dates). Booking a freed time for one takes the entry
-- off, in the booking's transaction.

CREATE TABLE "waitlist_entries" (
  "clinic_id" integer NOT NULL REFERENCES "clinics"("id"),
  "id" serial NOT NULL,
  "patient_id" integer NOT NULL,
  "treatment" text NOT NULL,
  -- The dentist they want; null: any dentist.
  "dentist_id" integer,
  -- ISO weekdays, 1 Monday … 7 Sunday, as a dentist's working days.
  "weekdays" smallint[] NOT NULL,
  "part_of_day" text DEFAULT 'any' NOT NULL,
  "earliest_on" date NOT NULL,
  "latest_on" date NOT NULL,
  "note" text DEFAULT '' NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "created_by" integer,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "waitlist_entries_pk" PRIMARY KEY ("clinic_id", "id"),
  -- A deleted patient's wishes go with them.
  CONSTRAINT "waitlist_entries_patient_fk" FOREIGN KEY ("clinic_id", "patient_id")
    REFERENCES "patients"("clinic_id", "id") ON DELETE CASCADE,
  -- A dentist removed for good (one who never had a visit) leaves their waiters wanting any dentist.
  CONSTRAINT "waitlist_entries_dentist_fk" FOREIGN KEY ("clinic_id", "dentist_id")
    REFERENCES "dentists"("clinic_id", "id") ON DELETE SET NULL ("dentist_id"),
  CONSTRAINT "waitlist_entries_created_by_fk" FOREIGN KEY ("clinic_id", "created_by")
    REFERENCES "users"("clinic_id", "id") ON DELETE SET NULL ("created_by"),
  CONSTRAINT "waitlist_entries_treatment_check" CHECK ("treatment" IN
    ('Dental Checkup', 'Regular Cleaning', 'Cavity Filling', 'Tooth Extraction', 'Root Canal')),
  CONSTRAINT "waitlist_entries_weekdays_check" CHECK (
    cardinality("weekdays") BETWEEN 1 AND 7 AND "weekdays" <@ ARRAY[1, 2, 3, 4, 5, 6, 7]::smallint[]
    AND array_position("weekdays", NULL) IS NULL),
  CONSTRAINT "waitlist_entries_part_of_day_check" CHECK ("part_of_day" IN ('any', 'morning', 'afternoon', 'evening')),
  CONSTRAINT "waitlist_entries_dates_check" CHECK ("earliest_on" <= "latest_on"),
  CONSTRAINT "waitlist_entries_note_check" CHECK (length("note") <= 500)
);--> statement-breakpoint
-- The clinic's list, oldest entry first (the order the queue is worked in).
CREATE INDEX "waitlist_entries_queue_idx" ON "waitlist_entries" ("clinic_id", "created_at", "id");--> statement-breakpoint
-- A freed time's matches: the entries whose window is still open on its day.
CREATE INDEX "waitlist_entries_window_idx" ON "waitlist_entries" ("clinic_id", "latest_on", "earliest_on");--> statement-breakpoint
-- A patient's entries (their deletion, a booking naming one).
CREATE INDEX "waitlist_entries_patient_idx" ON "waitlist_entries" ("clinic_id", "patient_id");--> statement-breakpoint
CREATE TRIGGER waitlist_entries_version BEFORE UPDATE ON waitlist_entries FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at');
