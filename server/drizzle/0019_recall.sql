-- Recall: patients coming back when they are due. Each clinic keeps its recall types; each patient's
-- recall of a type holds its due date, kept by the database as visits are completed.

CREATE TABLE "recall_types" (
  "clinic_id" integer NOT NULL REFERENCES "clinics"("id"),
  "id" serial NOT NULL,
  "name" text NOT NULL,
  "treatment" text NOT NULL,
  "interval_months" integer NOT NULL,
  "active" boolean DEFAULT true NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "recall_types_pk" PRIMARY KEY ("clinic_id", "id"),
  CONSTRAINT "recall_types_interval_check" CHECK ("interval_months" BETWEEN 1 AND 60),
  CONSTRAINT "recall_types_name_check" CHECK (length(btrim("name")) BETWEEN 1 AND 80)
);--> statement-breakpoint
CREATE UNIQUE INDEX "recall_types_name_unique" ON "recall_types" ("clinic_id", lower("name"));--> statement-breakpoint
CREATE TRIGGER recall_types_version BEFORE UPDATE ON recall_types FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at');--> statement-breakpoint

-- A patient's recall of one type. `follow_up_on` is the day it comes up in the recall list: its due
-- date, or the day it was snoozed to.
CREATE TABLE "patient_recalls" (
  "clinic_id" integer NOT NULL,
  "patient_id" integer NOT NULL,
  "recall_type_id" integer NOT NULL,
  "last_visit" date,
  "last_dentist_id" integer,
  "due_date" date NOT NULL,
  "due_set_by_hand" boolean DEFAULT false NOT NULL,
  "snoozed_until" date,
  "follow_up_on" date GENERATED ALWAYS AS (greatest("due_date", coalesce("snoozed_until", "due_date"))) STORED,
  "active" boolean DEFAULT true NOT NULL,
  "note" text DEFAULT '' NOT NULL,
  "last_contact_at" timestamp with time zone,
  "last_contact_kind" text,
  "last_contact_note" text,
  "version" integer DEFAULT 1 NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "patient_recalls_pk" PRIMARY KEY ("clinic_id", "patient_id", "recall_type_id"),
  CONSTRAINT "patient_recalls_patient_fk" FOREIGN KEY ("clinic_id", "patient_id") REFERENCES "patients"("clinic_id", "id"),
  CONSTRAINT "patient_recalls_type_fk" FOREIGN KEY ("clinic_id", "recall_type_id") REFERENCES "recall_types"("clinic_id", "id"),
  CONSTRAINT "patient_recalls_contact_kind_check" CHECK ("last_contact_kind" IN ('call', 'reminder')),
  CONSTRAINT "patient_recalls_note_check" CHECK (length("note") <= 500)
);--> statement-breakpoint
-- The recall list: a clinic's recalls that are on, soonest first.
CREATE INDEX "patient_recalls_follow_up_idx" ON "patient_recalls" ("clinic_id", "follow_up_on", "patient_id", "recall_type_id") WHERE "active";--> statement-breakpoint
CREATE TRIGGER patient_recalls_version BEFORE UPDATE ON patient_recalls FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at', 'follow_up_on');--> statement-breakpoint

-- A completed visit starts a new cycle of every recall type of its treatment: its due date is the
-- visit's day plus the interval (a date set by hand gives way), the snooze and the last contact of
-- the cycle before go. An older visit completed late does not move a newer cycle back.
CREATE FUNCTION follow_completed_visit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO patient_recalls AS r ("clinic_id", "patient_id", "recall_type_id", "last_visit", "last_dentist_id", "due_date")
  SELECT NEW.clinic_id, NEW.patient_id, t.id, NEW.date, NEW.dentist_id,
    (NEW.date + make_interval(months => t.interval_months))::date
  FROM recall_types t
  WHERE t.clinic_id = NEW.clinic_id AND t.treatment = NEW.treatment
  ON CONFLICT ("clinic_id", "patient_id", "recall_type_id") DO UPDATE
    SET "last_visit" = EXCLUDED.last_visit, "last_dentist_id" = EXCLUDED.last_dentist_id,
      "due_date" = EXCLUDED.due_date, "due_set_by_hand" = false, "snoozed_until" = NULL,
      "last_contact_at" = NULL, "last_contact_kind" = NULL, "last_contact_note" = NULL, "updated_at" = now()
    WHERE r.last_visit IS NULL OR r.last_visit <= EXCLUDED.last_visit;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER appointments_recall AFTER INSERT OR UPDATE OF "status", "date", "treatment", "dentist_id" ON appointments
  FOR EACH ROW WHEN (NEW.status = 'completed') EXECUTE FUNCTION follow_completed_visit();--> statement-breakpoint

-- A new recall type takes each patient's last completed visit of its treatment; a changed interval
-- or treatment moves the due dates that follow visits (not those set by hand).
CREATE FUNCTION recall_type_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.treatment = OLD.treatment THEN
    IF NEW.interval_months <> OLD.interval_months THEN
      UPDATE patient_recalls SET "due_date" = ("last_visit" + make_interval(months => NEW.interval_months))::date
      WHERE clinic_id = NEW.clinic_id AND recall_type_id = NEW.id AND NOT due_set_by_hand AND last_visit IS NOT NULL;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM patient_recalls WHERE clinic_id = NEW.clinic_id AND recall_type_id = NEW.id AND NOT due_set_by_hand;
  END IF;
  INSERT INTO patient_recalls ("clinic_id", "patient_id", "recall_type_id", "last_visit", "last_dentist_id", "due_date")
  SELECT DISTINCT ON (a.patient_id) NEW.clinic_id, a.patient_id, NEW.id, a.date, a.dentist_id,
    (a.date + make_interval(months => NEW.interval_months))::date
  FROM appointments a
  WHERE a.clinic_id = NEW.clinic_id AND a.treatment = NEW.treatment AND a.status = 'completed'
  ORDER BY a.patient_id, a.date DESC, a.time DESC
  ON CONFLICT ("clinic_id", "patient_id", "recall_type_id") DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER recall_types_follow AFTER INSERT OR UPDATE OF "treatment", "interval_months" ON recall_types
  FOR EACH ROW EXECUTE FUNCTION recall_type_changed();--> statement-breakpoint

-- Every clinic starts with the two usual recalls; a clinic made later gets them as it is made.
CREATE FUNCTION clinic_default_recall_types() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO recall_types ("clinic_id", "name", "treatment", "interval_months")
  VALUES (NEW.id, 'Hygiene recall', 'Regular Cleaning', 6), (NEW.id, 'Checkup', 'Dental Checkup', 12);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER clinics_default_recall_types AFTER INSERT ON clinics FOR EACH ROW
  EXECUTE FUNCTION clinic_default_recall_types();--> statement-breakpoint
INSERT INTO recall_types ("clinic_id", "name", "treatment", "interval_months")
SELECT c.id, d.name, d.treatment, d.interval_months
FROM clinics c CROSS JOIN (VALUES ('Hygiene recall', 'Regular Cleaning', 6), ('Checkup', 'Dental Checkup', 12)) AS d(name, treatment, interval_months);
