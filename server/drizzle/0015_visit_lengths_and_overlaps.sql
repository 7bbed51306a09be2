-- Every visit holds its time: a length in minutes, and no two live visits of one dentist or of one
-- patient overlap, kept by exclusion constraints (btree_gist lets a gist index compare the ids).
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "treatment_minutes" jsonb;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "booking_grid_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "duration" integer;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "overlap_group" integer;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "outside_hours" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "outside_hours_reason" text;--> statement-breakpoint
CREATE OR REPLACE FUNCTION appointments_after_write() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  changed record;
BEGIN
  -- A change of length, kept group, notes or flags leaves the day counts and the search words as
  -- they were: only a statement that changed a field they hold is worked through (a bulk change of
  -- lengths, as this migration's, would otherwise rewrite every row's words).
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
      $bulk$;
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A treatment's default length (DEFAULT_TREATMENT_MINUTES in shared/src/domain/visitTime.ts), or the
-- clinic's own from Settings.
CREATE FUNCTION treatment_minutes(clinic integer, treatment text) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT (s.treatment_minutes ->> treatment)::integer FROM clinic_settings s WHERE s.clinic_id = clinic),
    CASE treatment WHEN 'Dental Checkup' THEN 30 WHEN 'Root Canal' THEN 90 ELSE 60 END
  )
$$;--> statement-breakpoint
-- Existing visits get their treatment's length.
UPDATE "appointments" SET
  "duration" = CASE "treatment" WHEN 'Dental Checkup' THEN 30 WHEN 'Root Canal' THEN 90 ELSE 60 END;--> statement-breakpoint
ALTER TABLE "appointments" ALTER COLUMN "duration" SET DEFAULT null;--> statement-breakpoint
ALTER TABLE "appointments" ALTER COLUMN "duration" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_duration_check" CHECK ("appointments"."duration" between 5 and 480 and "appointments"."duration" % 5 = 0);--> statement-breakpoint
-- The candidates of a clinic (its live visits whose overlap_group is set, e.g. 0, or with `every_live`
-- all of them) become kept groups: each set of visits joined by overlaps, of a dentist or of a
-- patient, gets its smallest id, and a candidate that overlaps none leaves the groups. Each
-- dentist's (and patient's) visits in start order form runs (a visit starting before the latest end
-- so far joins the run), and runs that share a visit are joined; so a clinic is settled in a few
-- passes over its visits, whatever their number. Called with dental.keeping_overlaps on.
CREATE FUNCTION settle_overlap_groups(clinic integer, every_live boolean DEFAULT false) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  kept integer;
BEGIN
  SET CONSTRAINTS ALL DEFERRED;
  DROP TABLE IF EXISTS settling;
  CREATE TEMP TABLE settling ON COMMIT DROP AS
    SELECT id, dentist_id, patient_id,
      (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int AS starts,
      (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + duration AS ends,
      0 AS by_dentist, 0 AS by_patient, 0 AS label
    FROM appointments
    WHERE clinic_id = clinic AND status <> 'cancelled' AND (every_live OR overlap_group IS NOT NULL);
  WITH reached AS (
    SELECT id, dentist_id, starts, max(ends) OVER (PARTITION BY dentist_id ORDER BY starts, id
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach
    FROM settling
  ), runs AS (
    SELECT id, dentist_id, sum(CASE WHEN reach IS NULL OR starts >= reach THEN 1 ELSE 0 END)
      OVER (PARTITION BY dentist_id ORDER BY starts, id) AS run
    FROM reached
  )
  UPDATE settling SET by_dentist = firsts.first
  FROM (SELECT id, min(id) OVER (PARTITION BY dentist_id, run) AS first FROM runs) AS firsts
  WHERE firsts.id = settling.id;
  WITH reached AS (
    SELECT id, patient_id, starts, max(ends) OVER (PARTITION BY patient_id ORDER BY starts, id
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach
    FROM settling
  ), runs AS (
    SELECT id, patient_id, sum(CASE WHEN reach IS NULL OR starts >= reach THEN 1 ELSE 0 END)
      OVER (PARTITION BY patient_id ORDER BY starts, id) AS run
    FROM reached
  )
  UPDATE settling SET by_patient = firsts.first, label = least(settling.by_dentist, firsts.first)
  FROM (SELECT id, min(id) OVER (PARTITION BY patient_id, run) AS first FROM runs) AS firsts
  WHERE firsts.id = settling.id;
  LOOP
    WITH spread AS (
      SELECT id, least(min(label) OVER (PARTITION BY by_dentist), min(label) OVER (PARTITION BY by_patient)) AS label
      FROM settling
    )
    UPDATE settling SET label = spread.label FROM spread
    WHERE spread.id = settling.id AND spread.label < settling.label;
    EXIT WHEN NOT FOUND;
  END LOOP;
  UPDATE appointments SET overlap_group = grouped.kept_in
  FROM (
    SELECT id, CASE WHEN count(*) OVER (PARTITION BY label) > 1 THEN label END AS kept_in FROM settling
  ) AS grouped
  WHERE appointments.clinic_id = clinic AND appointments.id = grouped.id
    AND appointments.overlap_group IS DISTINCT FROM grouped.kept_in;
  UPDATE appointments SET overlap_group = NULL
  WHERE clinic_id = clinic AND overlap_group IS NOT NULL AND status = 'cancelled';
  SET CONSTRAINTS ALL IMMEDIATE;
  SELECT count(*) INTO kept FROM appointments WHERE clinic_id = clinic AND overlap_group IS NOT NULL;
  DROP TABLE settling;
  RETURN kept;
END
$$;--> statement-breakpoint
-- Visits that already overlap (an older database) are kept, each set of them a group.
SELECT set_config('dental.keeping_overlaps', 'on', true);--> statement-breakpoint
SELECT settle_overlap_groups(id, true) FROM clinics;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "span" "int4range" GENERATED ALWAYS AS (int4range(
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int,
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + duration)) STORED,
  ADD COLUMN "end_time" text GENERATED ALWAYS AS (lpad((((substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + duration) / 60) % 24)::text, 2, '0')
        || ':' || lpad(((substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + duration) % 60)::text, 2, '0')) STORED;--> statement-breakpoint
DROP INDEX "appointments_no_double_booking";--> statement-breakpoint
-- Two live visits conflict when they share the dentist (or the patient), their spans overlap and
-- they are not of one kept group (a visit outside every group is a group of its own: its id).
-- Touching spans ([600,690) and [690,720)) do not overlap. Deferrable, so that
-- settle_overlap_groups may relabel groups within a statement.
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_dentist_time_excl" EXCLUDE USING gist (
  "clinic_id" WITH =, "dentist_id" WITH =, "span" WITH &&, (coalesce("overlap_group", "id")) WITH <>
) WHERE ("status" <> 'cancelled') DEFERRABLE INITIALLY IMMEDIATE;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_time_excl" EXCLUDE USING gist (
  "clinic_id" WITH =, "patient_id" WITH =, "span" WITH &&, (coalesce("overlap_group", "id")) WITH <>
) WHERE ("status" <> 'cancelled') DEFERRABLE INITIALLY IMMEDIATE;--> statement-breakpoint
CREATE INDEX "appointments_overlap_group_idx" ON "appointments" ("clinic_id", "overlap_group")
  WHERE "overlap_group" IS NOT NULL;--> statement-breakpoint
-- What a write may do to a visit's time. A visit left without a length gets its treatment's. Only
-- settle_overlap_groups (or an import, which says so with dental.keeping_overlaps) puts a visit in a
-- kept group; any change of its time, length, dentist or patient, or bringing it back from
-- cancelled, takes it out, so the constraints above hold it like any other.
CREATE FUNCTION appointments_hold_time() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keeping boolean := coalesce(current_setting('dental.keeping_overlaps', true), '') = 'on';
BEGIN
  IF NEW.duration IS NULL THEN
    NEW.duration := treatment_minutes(NEW.clinic_id, NEW.treatment);
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NOT keeping THEN NEW.overlap_group := NULL; END IF;
  ELSIF (NEW.date, NEW.time, NEW.duration, NEW.dentist_id, NEW.patient_id)
      IS DISTINCT FROM (OLD.date, OLD.time, OLD.duration, OLD.dentist_id, OLD.patient_id)
    OR (OLD.status = 'cancelled' AND NEW.status <> 'cancelled') THEN
    NEW.overlap_group := NULL;
  ELSIF NOT keeping THEN
    NEW.overlap_group := OLD.overlap_group;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER appointments_hold_time BEFORE INSERT OR UPDATE ON appointments
  FOR EACH ROW EXECUTE FUNCTION appointments_hold_time();--> statement-breakpoint
SELECT set_config('dental.keeping_overlaps', '', true);
