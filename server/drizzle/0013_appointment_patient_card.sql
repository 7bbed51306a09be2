ALTER TABLE "appointments" ADD COLUMN "patient_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "patient_phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The appointments there are: their search words are unchanged, so their statement trigger is off.
ALTER TABLE "appointments" DISABLE TRIGGER "appointments_after_update";
--> statement-breakpoint
UPDATE "appointments" AS a SET "patient_name" = p."name", "patient_phone" = p."phone"
FROM "patients" AS p WHERE p."clinic_id" = a."clinic_id" AND p."id" = a."patient_id";
--> statement-breakpoint
ALTER TABLE "appointments" ENABLE TRIGGER "appointments_after_update";
--> statement-breakpoint
-- A booking, or an appointment given to another patient (or its copy written by hand), takes the
-- patient's name and phone. FOR SHARE waits for a rename of the patient not yet committed and reads
-- what it wrote: that rename's own update of the patient's appointments cannot see this row. A
-- patient that does not exist leaves the card empty, for the foreign key to refuse the row.
CREATE FUNCTION appointments_patient_card() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  card record;
BEGIN
  SELECT name, phone INTO card FROM patients
  WHERE clinic_id = NEW.clinic_id AND id = NEW.patient_id FOR SHARE;
  NEW.patient_name := coalesce(card.name, '');
  NEW.patient_phone := coalesce(card.phone, '');
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER appointments_patient_card_insert BEFORE INSERT ON appointments FOR EACH ROW
  EXECUTE FUNCTION appointments_patient_card();
--> statement-breakpoint
CREATE TRIGGER appointments_patient_card_update BEFORE UPDATE OF patient_id, patient_name, patient_phone ON appointments FOR EACH ROW
  WHEN (OLD.patient_id IS DISTINCT FROM NEW.patient_id OR OLD.patient_name IS DISTINCT FROM NEW.patient_name
    OR OLD.patient_phone IS DISTINCT FROM NEW.patient_phone)
  EXECUTE FUNCTION appointments_patient_card();
--> statement-breakpoint
-- A patient renamed or given a new phone: their appointments' cards first, then (as before) their
-- search words, which the appointments' own update trigger has just rewritten from the old words.
CREATE OR REPLACE FUNCTION patients_after_rename() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  IF OLD.name IS DISTINCT FROM NEW.name OR OLD.phone IS DISTINCT FROM NEW.phone THEN
    UPDATE appointments SET patient_name = NEW.name, patient_phone = NEW.phone
    WHERE clinic_id = NEW.clinic_id AND patient_id = NEW.id;
  END IF;
  DELETE FROM appointment_search_terms
  WHERE clinic_id = NEW.clinic_id AND appointment_id IN (
    SELECT id FROM appointments WHERE clinic_id = NEW.clinic_id AND patient_id = NEW.id);
  INSERT INTO appointment_search_terms (clinic_id, appointment_id, prefix, terms, date, time, status, dentist_id, patient_id, treatment)
  SELECT a.clinic_id, a.id, starts.prefix, starts.terms, a.date, a.time, a.status, a.dentist_id, a.patient_id, a.treatment
  FROM appointments AS a CROSS JOIN patient_word_starts(NEW.name, NEW.email, NEW.phone) AS starts
  WHERE a.clinic_id = NEW.clinic_id AND a.patient_id = NEW.id;
  RETURN NULL;
END
$$;
