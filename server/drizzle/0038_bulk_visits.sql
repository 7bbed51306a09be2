-- Visits written in bulk (docs/architecture.md, "Database rules"): the large seed and a clinic's
-- import write up to a million visits in one statement, and the per-row triggers of a visit made that
-- slow (the recall's refresh of booked_until read the patient's visits again for every row, with no
-- index during the seed: quadratic). A transaction that says so with `dental.bulk_visits` = 'on' has
-- the visits it inserts kept by one statement-level trigger instead:
-- - what the per-row BEFORE triggers would fill in (the patient's card, 0013; the visit's group,
--   dentist part and turnover, 0034) the writer fills in, and the statement checks every row against
--   what those triggers would have written, with their locks, refusing the statement on any
--   difference; a row without a chair or a length still takes the per-row trigger, which gives them;
-- - what the per-row AFTER triggers do (a completed visit's recalls, 0019; booked_until, 0024) the
--   statement does for all its rows at once (a recall's version then moves once for the statement,
--   where the rows' triggers move it once for each visit that changes it: a version tells a desk
--   that the row changed since it read it, not how often).
-- Every other write (a booking, a move, any update or delete, an insert without the setting) goes
-- through the per-row triggers exactly as before. The setting changes how the rules are kept, never
-- whether: with it on, the statement's trigger keeps them; with it off, the rows' triggers do. The
-- exclusion constraints check every row either way.

-- The per-row triggers of an insert are triggers of their own now, skipped in bulk; updates and
-- deletes keep theirs. Names keep the order they fire in (alphabetical): the time is held before
-- the card is read, and a completed visit makes its recall before its booking is counted.
DROP TRIGGER appointments_hold_time ON appointments;--> statement-breakpoint
CREATE TRIGGER appointments_hold_time BEFORE UPDATE ON appointments
  FOR EACH ROW EXECUTE FUNCTION appointments_hold_time();--> statement-breakpoint
CREATE TRIGGER appointments_hold_time_added BEFORE INSERT ON appointments
  FOR EACH ROW WHEN (NEW.chair_id IS NULL OR NEW.duration IS NULL
    OR current_setting('dental.bulk_visits', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION appointments_hold_time();--> statement-breakpoint
DROP TRIGGER appointments_patient_card_insert ON appointments;--> statement-breakpoint
CREATE TRIGGER appointments_patient_card_insert BEFORE INSERT ON appointments
  FOR EACH ROW WHEN (current_setting('dental.bulk_visits', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION appointments_patient_card();--> statement-breakpoint
DROP TRIGGER appointments_recall ON appointments;--> statement-breakpoint
CREATE TRIGGER appointments_recall AFTER UPDATE OF "status", "date", "treatment", "dentist_id" ON appointments
  FOR EACH ROW WHEN (NEW.status = 'completed') EXECUTE FUNCTION follow_completed_visit();--> statement-breakpoint
CREATE TRIGGER appointments_recall_added AFTER INSERT ON appointments
  FOR EACH ROW WHEN (NEW.status = 'completed' AND current_setting('dental.bulk_visits', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION follow_completed_visit();--> statement-breakpoint
DROP TRIGGER appointments_recall_booking ON appointments;--> statement-breakpoint
CREATE TRIGGER appointments_recall_booking AFTER DELETE OR UPDATE OF "status", "date", "treatment", "patient_id"
  ON appointments FOR EACH ROW EXECUTE FUNCTION follow_booked_visits();--> statement-breakpoint
CREATE TRIGGER appointments_recall_booking_added AFTER INSERT ON appointments
  FOR EACH ROW WHEN (current_setting('dental.bulk_visits', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION follow_booked_visits();--> statement-breakpoint

-- What the per-row triggers of an insert do, for all of a bulk statement's visits at once. Each
-- statement is planned afresh (EXECUTE) for the rows at hand: a few hundred probe the indexes, a
-- million are joined by hashing.
CREATE FUNCTION appointments_added_in_bulk() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  keeping boolean := coalesce(current_setting('dental.keeping_overlaps', true), '') = 'on';
  wrong integer;
BEGIN
  IF current_setting('dental.bulk_visits', true) IS DISTINCT FROM 'on' THEN
    RETURN NULL;
  END IF;

  -- appointments_patient_card: each visit carries its patient's name and phone ('' for a patient
  -- that does not exist, which the foreign key refuses). The patients are locked as that trigger
  -- locks each, so a rename not yet committed is waited for and then read.
  EXECUTE $lock_patients$
    SELECT 1 FROM patients p
    WHERE (p.clinic_id, p.id) IN (SELECT clinic_id, patient_id FROM new_rows)
    ORDER BY p.clinic_id, p.id
    FOR SHARE
  $lock_patients$;
  EXECUTE $card$
    SELECT n.id FROM new_rows n
    LEFT JOIN patients p ON p.clinic_id = n.clinic_id AND p.id = n.patient_id
    WHERE (n.patient_name, n.patient_phone) IS DISTINCT FROM (coalesce(p.name, ''), coalesce(p.phone, ''))
    LIMIT 1
  $card$ INTO wrong;
  IF wrong IS NOT NULL THEN
    RAISE EXCEPTION 'visit % was written in bulk without its patient''s name and phone', wrong
      USING ERRCODE = 'check_violation', CONSTRAINT = 'appointments_bulk_patient_card', TABLE = 'appointments';
  END IF;

  -- appointments_hold_time for a visit given its chair and length (the others took that trigger):
  -- an import (dental.keeping_overlaps) keeps what its file carries, and the trigger does nothing.
  -- Otherwise the visit is in no kept group, has its treatment's dentist part and the clinic's
  -- turnover (its settings, read once), is placed in a chair in service, waits for the online day's
  -- turn of its clinic, and takes no minute of a live hold.
  IF NOT keeping THEN
    EXECUTE $placed$
      SELECT n.id FROM new_rows n
      LEFT JOIN clinic_settings s ON s.clinic_id = n.clinic_id
      CROSS JOIN LATERAL (
        SELECT dentist_part_of((s.dentist_parts -> n.treatment ->> 'from')::integer,
          (s.dentist_parts -> n.treatment ->> 'to')::integer, n.duration) AS part
      ) AS parted
      WHERE n.overlap_group IS NOT NULL
        OR (n.dentist_from, n.dentist_to) IS DISTINCT FROM (lower(parted.part), upper(parted.part))
        OR n.turnover IS DISTINCT FROM coalesce(s.turnover_minutes, 0)
      LIMIT 1
    $placed$ INTO wrong;
    IF wrong IS NOT NULL THEN
      RAISE EXCEPTION 'visit % was written in bulk with another group, dentist part or turnover than its clinic gives', wrong
        USING ERRCODE = 'check_violation', CONSTRAINT = 'appointments_bulk_placed', TABLE = 'appointments';
    END IF;
    EXECUTE $lock_chairs$
      SELECT 1 FROM chairs c
      WHERE (c.clinic_id, c.id) IN (SELECT clinic_id, chair_id FROM new_rows WHERE status <> 'cancelled')
      ORDER BY c.clinic_id, c.id
      FOR KEY SHARE
    $lock_chairs$;
    EXECUTE $in_service$
      SELECT n.id FROM new_rows n
      JOIN chairs c ON c.clinic_id = n.clinic_id AND c.id = n.chair_id
      WHERE n.status <> 'cancelled' AND NOT (c.retired_at IS NULL AND c.in_service)
      LIMIT 1
    $in_service$ INTO wrong;
    IF wrong IS NOT NULL THEN
      RAISE EXCEPTION 'the chair is not in service' USING ERRCODE = 'check_violation',
        CONSTRAINT = 'appointments_chair_in_service', TABLE = 'appointments';
    END IF;
    EXECUTE $online_days$
      SELECT pg_advisory_xact_lock(hashtextextended('holds:' || days.clinic_id || ':' || days.date, 0))
      FROM (
        SELECT DISTINCT n.clinic_id, n.date FROM new_rows n
        JOIN clinic_settings s ON s.clinic_id = n.clinic_id
        WHERE n.status <> 'cancelled' AND coalesce((s.online_booking ->> 'enabled')::boolean, false)
        ORDER BY n.clinic_id, n.date
      ) AS days
    $online_days$;
    EXECUTE $held$
      SELECT n.id FROM new_rows n
      JOIN clinic_settings s ON s.clinic_id = n.clinic_id
      JOIN booking_holds h ON h.clinic_id = n.clinic_id AND h.expires_at > now() AND (
        (h.chair_id = n.chair_id AND h.chair_span && n.chair_span)
        OR (h.dentist_id = n.dentist_id AND h.dentist_span && n.dentist_span))
      WHERE n.status <> 'cancelled' AND coalesce((s.online_booking ->> 'enabled')::boolean, false)
      LIMIT 1
    $held$ INTO wrong;
    IF wrong IS NOT NULL THEN
      RAISE EXCEPTION 'the time is held by an online booking' USING ERRCODE = 'exclusion_violation',
        CONSTRAINT = 'booking_holds_time', TABLE = 'appointments';
    END IF;
  END IF;

  -- follow_completed_visit for every completed visit: the recall of each type of its treatment
  -- takes the patient's latest completed visit of the statement, the one written last among those
  -- of that day (as the rows' triggers, run in the order the rows were written, would leave it),
  -- unless the recall already follows a later visit.
  EXECUTE $completed$
    INSERT INTO patient_recalls AS r ("clinic_id", "patient_id", "recall_type_id", "last_visit", "last_dentist_id", "due_date")
    SELECT DISTINCT ON (v.clinic_id, v.patient_id, t.id) v.clinic_id, v.patient_id, t.id, v.date, v.dentist_id,
      (v.date + make_interval(months => t.interval_months))::date
    FROM (
      -- The order the statement wrote its rows in: a transition table is read back as it was filled.
      SELECT clinic_id, patient_id, dentist_id, date, treatment, row_number() OVER () AS written
      FROM new_rows WHERE status = 'completed'
    ) AS v
    JOIN recall_types t ON t.clinic_id = v.clinic_id AND t.treatment = v.treatment
    ORDER BY v.clinic_id, v.patient_id, t.id, v.date DESC, v.written DESC
    ON CONFLICT ("clinic_id", "patient_id", "recall_type_id") DO UPDATE
      SET "last_visit" = EXCLUDED.last_visit, "last_dentist_id" = EXCLUDED.last_dentist_id,
        "due_date" = EXCLUDED.due_date, "due_set_by_hand" = false, "snoozed_until" = NULL,
        "last_contact_at" = NULL, "last_contact_kind" = NULL, "last_contact_note" = NULL, "updated_at" = now()
      WHERE r.last_visit IS NULL OR r.last_visit <= EXCLUDED.last_visit
  $completed$;

  -- refresh_recall_booking for every booked or completed visit's patient and treatment: their
  -- recalls are locked first, in one order, so a write of one of these patients' visits committed
  -- meanwhile is waited for and read; then each takes the day of the latest booked visit of its
  -- treatment. Only the patients and treatments that have recalls: the others' visits are not read.
  EXECUTE $lock_recalls$
    SELECT 1 FROM patient_recalls r
    JOIN recall_types t ON t.clinic_id = r.clinic_id AND t.id = r.recall_type_id
    WHERE (r.clinic_id, r.patient_id, t.treatment) IN (
      SELECT clinic_id, patient_id, treatment FROM new_rows WHERE status IN ('pending', 'confirmed', 'completed'))
    ORDER BY r.clinic_id, r.patient_id, r.recall_type_id
    FOR UPDATE OF r
  $lock_recalls$;
  EXECUTE $booked$
    UPDATE patient_recalls r SET booked_until = latest.day
    FROM recall_types t, (
      SELECT touched.clinic_id, touched.patient_id, touched.treatment, max(a.date) AS day
      FROM (
        SELECT DISTINCT n.clinic_id, n.patient_id, n.treatment FROM new_rows n
        WHERE n.status IN ('pending', 'confirmed', 'completed') AND EXISTS (
          SELECT 1 FROM patient_recalls r JOIN recall_types t ON t.clinic_id = r.clinic_id AND t.id = r.recall_type_id
          WHERE r.clinic_id = n.clinic_id AND r.patient_id = n.patient_id AND t.treatment = n.treatment)
      ) AS touched
      LEFT JOIN appointments a ON a.clinic_id = touched.clinic_id AND a.patient_id = touched.patient_id
        AND a.treatment = touched.treatment AND a.status IN ('pending', 'confirmed')
      GROUP BY touched.clinic_id, touched.patient_id, touched.treatment
    ) AS latest
    WHERE t.clinic_id = r.clinic_id AND t.id = r.recall_type_id
      AND r.clinic_id = latest.clinic_id AND r.patient_id = latest.patient_id AND t.treatment = latest.treatment
      AND r.booked_until IS DISTINCT FROM latest.day
  $booked$;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER appointments_added_in_bulk AFTER INSERT ON appointments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION appointments_added_in_bulk();--> statement-breakpoint
-- The search words of many visits at once (migration 0015's bulk branch, otherwise as it was) are
-- written in the order of the search indexes (clinic, prefix, day, time): the two million rows of an
-- imported clinic's million visits went into those indexes in half the server's time (23 s, against
-- 42 s in the order the visits came).
CREATE OR REPLACE FUNCTION appointments_after_write() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  changed record;
BEGIN
  -- A change of length, kept group, notes or flags leaves the day counts and the search words as
  -- they were: only a statement that changed a field they hold is worked through (a bulk change of
  -- lengths, as migration 0015's, would otherwise rewrite every row's words).
  -- (Nested: the transition tables exist only for the events that have them.)
  IF TG_OP = 'UPDATE' THEN
    -- A set difference (hashed), not a join: the planner knows nothing of a transition table's
    -- size, and joined them row by row, which took minutes for a million rows.
    IF NOT EXISTS (
      SELECT clinic_id, id, date, time, status, dentist_id, patient_id, treatment FROM new_rows
      EXCEPT
      SELECT clinic_id, id, date, time, status, dentist_id, patient_id, treatment FROM old_rows
    ) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE appointment_day_counts AS counts SET total = counts.total - gone.total
    FROM (SELECT clinic_id, status, date, count(*)::int AS total FROM old_rows GROUP BY clinic_id, status, date) AS gone
    WHERE counts.clinic_id = gone.clinic_id AND counts.status = gone.status AND counts.date = gone.date;
    -- By ids, so it is a probe of appointment_search_terms_appointment_idx whatever the number of rows.
    FOR changed IN SELECT clinic_id, array_agg(id) AS ids FROM old_rows GROUP BY clinic_id LOOP
      DELETE FROM appointment_search_terms
      WHERE clinic_id = changed.clinic_id AND appointment_id = ANY (changed.ids);
    END LOOP;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO appointment_day_counts AS counts (clinic_id, status, date, total)
    SELECT clinic_id, status, date, count(*)::int FROM new_rows GROUP BY clinic_id, status, date
    ON CONFLICT (clinic_id, status, date) DO UPDATE SET total = counts.total + excluded.total;
    -- The words of each appointment's patient. A few appointments (a booking, a move): each
    -- patient's words through patient_search_terms_patient_idx. Many (an import, the large seed):
    -- the clinics' words grouped once and joined, planned afresh by EXECUTE for the rows at hand,
    -- since a cached plan would be the one made for the first statement of the session.
    IF (SELECT count(*) FROM new_rows) <= 1000 THEN
      -- A patient renamed by a transaction not yet committed would leave these rows with the old
      -- words: wait for it, then read the words it wrote (each statement here sees what has been
      -- committed when it starts).
      PERFORM 1 FROM patients JOIN new_rows ON patients.clinic_id = new_rows.clinic_id AND patients.id = new_rows.patient_id
      ORDER BY patients.clinic_id, patients.id FOR SHARE OF patients;
      INSERT INTO appointment_search_terms (clinic_id, appointment_id, prefix, terms, date, time, status, dentist_id, patient_id, treatment)
      SELECT new_rows.clinic_id, new_rows.id, starts.prefix, starts.terms, new_rows.date, new_rows.time,
        new_rows.status, new_rows.dentist_id, new_rows.patient_id, new_rows.treatment
      FROM new_rows CROSS JOIN LATERAL (
        SELECT terms.prefix, ' ' || string_agg(terms.term, ' ' ORDER BY terms.term) || ' ' AS terms
        FROM patient_search_terms AS terms
        WHERE terms.clinic_id = new_rows.clinic_id AND terms.patient_id = new_rows.patient_id
          AND length(terms.term) >= 2 AND terms.term !~ '^[0-9]'
        GROUP BY terms.prefix
      ) AS starts;
    ELSE
      EXECUTE $bulk$
        INSERT INTO appointment_search_terms (clinic_id, appointment_id, prefix, terms, date, time, status, dentist_id, patient_id, treatment)
        SELECT new_rows.clinic_id, new_rows.id, starts.prefix, starts.terms, new_rows.date, new_rows.time,
          new_rows.status, new_rows.dentist_id, new_rows.patient_id, new_rows.treatment
        FROM new_rows JOIN (
          SELECT terms.clinic_id, terms.patient_id, terms.prefix,
            ' ' || string_agg(terms.term, ' ' ORDER BY terms.term) || ' ' AS terms
          FROM patient_search_terms AS terms
          WHERE terms.clinic_id IN (SELECT DISTINCT clinic_id FROM new_rows)
            AND length(terms.term) >= 2 AND terms.term !~ '^[0-9]'
          GROUP BY terms.clinic_id, terms.patient_id, terms.prefix
        ) AS starts ON starts.clinic_id = new_rows.clinic_id AND starts.patient_id = new_rows.patient_id
        ORDER BY new_rows.clinic_id, starts.prefix, new_rows.date, new_rows.time
      $bulk$;
    END IF;
  END IF;
  RETURN NULL;
END
$$;
