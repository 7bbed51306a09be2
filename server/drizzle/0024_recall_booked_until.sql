-- "Scheduled" on the recall list is a column of the recall, kept by the database: `booked_until` is
-- the day of the patient's latest booked (pending or confirmed) visit of the recall's treatment, or
-- null. A recall is scheduled when that day is today or later, so the list's "not scheduled" is a
-- test of the row the dentist's index already gives, not a probe of the visits for each recall
-- (bench/explain.mjs: 9.8-13.5 ms on the large clinic before).
ALTER TABLE "patient_recalls" ADD COLUMN "booked_until" date;--> statement-breakpoint

-- The booked day is bookkeeping, not an edit of the recall another desk holds: its version stays.
DROP TRIGGER patient_recalls_version ON patient_recalls;--> statement-breakpoint
CREATE TRIGGER patient_recalls_version BEFORE UPDATE ON patient_recalls FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at', 'follow_up_on', 'booked_until');--> statement-breakpoint

-- A patient's recalls of one treatment take the day of their latest booked visit of it. The recalls
-- are locked first, so that two writes of one patient's visits take turns and the second reads the
-- visits after the first committed (each statement of a volatile function reads afresh). Locking the
-- recalls, not the patient, keeps the order every writer takes (visits, then recalls): a patient's
-- rename, which rewrites their visits, cannot meet a visit's change in a deadlock.
CREATE FUNCTION refresh_recall_booking(of_clinic integer, of_patient integer, of_treatment text)
  RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  latest date;
BEGIN
  PERFORM 1 FROM patient_recalls r
  JOIN recall_types t ON t.clinic_id = r.clinic_id AND t.id = r.recall_type_id
  WHERE r.clinic_id = of_clinic AND r.patient_id = of_patient AND t.treatment = of_treatment
  ORDER BY r.recall_type_id
  FOR UPDATE OF r;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT max(a.date) INTO latest FROM appointments a
  WHERE a.clinic_id = of_clinic AND a.patient_id = of_patient AND a.treatment = of_treatment
    AND a.status IN ('pending', 'confirmed');
  UPDATE patient_recalls r SET booked_until = latest
  FROM recall_types t
  WHERE r.clinic_id = of_clinic AND r.patient_id = of_patient
    AND t.clinic_id = r.clinic_id AND t.id = r.recall_type_id AND t.treatment = of_treatment
    AND r.booked_until IS DISTINCT FROM latest;
END
$$;--> statement-breakpoint

-- A visit booked, moved, cancelled, completed, deleted or given to another patient or treatment. A
-- completed visit refreshes its treatment too: it may have just made the patient's recall (the
-- trigger appointments_recall runs first, by name). One gap is left: a recall made by a visit
-- completed while another transaction books a visit of its treatment for the same patient, neither
-- committed, misses that booking until the patient's next change of a visit of it.
CREATE FUNCTION follow_booked_visits() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_booked boolean := TG_OP <> 'INSERT' AND OLD.status IN ('pending', 'confirmed');
  counts_now boolean := TG_OP <> 'DELETE' AND NEW.status IN ('pending', 'confirmed', 'completed');
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = NEW.status AND OLD.date = NEW.date
    AND OLD.treatment = NEW.treatment AND OLD.patient_id = NEW.patient_id THEN
    RETURN NULL;
  END IF;
  IF was_booked THEN
    PERFORM refresh_recall_booking(OLD.clinic_id, OLD.patient_id, OLD.treatment);
  END IF;
  IF counts_now AND NOT (was_booked AND OLD.patient_id = NEW.patient_id AND OLD.treatment = NEW.treatment) THEN
    PERFORM refresh_recall_booking(NEW.clinic_id, NEW.patient_id, NEW.treatment);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER appointments_recall_booking AFTER INSERT OR DELETE OR UPDATE OF "status", "date", "treatment", "patient_id"
  ON appointments FOR EACH ROW EXECUTE FUNCTION follow_booked_visits();--> statement-breakpoint

-- A new recall type, or one given another treatment: its recalls take the booked visits of its
-- treatment (after recall_types_follow, by name, has made them).
CREATE FUNCTION recall_type_booked_visits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE patient_recalls r SET booked_until = NULL
  WHERE r.clinic_id = NEW.clinic_id AND r.recall_type_id = NEW.id AND r.booked_until IS NOT NULL;
  UPDATE patient_recalls r SET booked_until = b.latest
  FROM (SELECT a.patient_id, max(a.date) AS latest FROM appointments a
        WHERE a.clinic_id = NEW.clinic_id AND a.treatment = NEW.treatment AND a.status IN ('pending', 'confirmed')
        GROUP BY a.patient_id) b
  WHERE r.clinic_id = NEW.clinic_id AND r.recall_type_id = NEW.id AND r.patient_id = b.patient_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER recall_types_follow_booked AFTER INSERT OR UPDATE OF "treatment" ON recall_types
  FOR EACH ROW EXECUTE FUNCTION recall_type_booked_visits();--> statement-breakpoint

UPDATE patient_recalls r SET booked_until = b.latest
FROM (SELECT a.clinic_id, a.patient_id, t.id AS recall_type_id, max(a.date) AS latest
      FROM appointments a
      JOIN recall_types t ON t.clinic_id = a.clinic_id AND t.treatment = a.treatment
      WHERE a.status IN ('pending', 'confirmed')
      GROUP BY a.clinic_id, a.patient_id, t.id) b
WHERE r.clinic_id = b.clinic_id AND r.patient_id = b.patient_id AND r.recall_type_id = b.recall_type_id;--> statement-breakpoint
ANALYZE "patient_recalls";
