CREATE TABLE "appointment_search_terms" (
	"clinic_id" integer NOT NULL,
	"appointment_id" integer NOT NULL,
	"prefix" text COLLATE "C" NOT NULL,
	"terms" text COLLATE "C" NOT NULL,
	"date" date NOT NULL,
	"time" text NOT NULL,
	"status" text NOT NULL,
	"dentist_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"treatment" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_search_pairs" (
	"clinic_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"prefix_a" text COLLATE "C" NOT NULL,
	"prefix_b" text COLLATE "C" NOT NULL,
	"name" text NOT NULL,
	"terms_a" text COLLATE "C" NOT NULL,
	"terms_b" text COLLATE "C" NOT NULL,
	"status" text NOT NULL,
	CONSTRAINT "patient_search_pairs_clinic_id_patient_id_prefix_a_prefix_b_pk" PRIMARY KEY("clinic_id","patient_id","prefix_a","prefix_b")
);
--> statement-breakpoint
ALTER TABLE "patient_search_pairs" ADD CONSTRAINT "patient_search_pairs_patient_fk" FOREIGN KEY ("clinic_id","patient_id") REFERENCES "public"."patients"("clinic_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- A patient's words of two characters or more that do not start with a digit, by their first two
-- characters, each start's words in one text with a space before and after each word: a typed word
-- of two characters or more that starts with a letter can only be the start of these, and
-- `terms like '% mar%'` tells whether one of them starts with 'mar'. Phone numbers are left to
-- patient_search_terms: a number typed matches few patients, whose appointments are read by patient.
CREATE FUNCTION patient_word_starts(name text, email text, phone text) RETURNS TABLE (prefix text, terms text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT left(word, 2), ' ' || string_agg(word, ' ' ORDER BY word) || ' '
  FROM patient_search_words(name, email, phone) AS words(word)
  WHERE length(word) >= 2 AND word !~ '^[0-9]'
  GROUP BY left(word, 2)
$$;
--> statement-breakpoint
-- The trigger functions run without JIT: their row estimates (a thousand words a patient, as for
-- any function returning a set) would have PostgreSQL compile the statements of every write of a
-- few rows, some 200 ms, for work of a few milliseconds.
CREATE OR REPLACE FUNCTION patients_after_write() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE patient_status_counts AS counts SET total = counts.total - gone.total
    FROM (SELECT clinic_id, status, count(*)::int AS total FROM old_rows GROUP BY clinic_id, status) AS gone
    WHERE counts.clinic_id = gone.clinic_id AND counts.status = gone.status;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM patient_search_terms AS terms USING old_rows
    WHERE terms.clinic_id = old_rows.clinic_id AND terms.patient_id = old_rows.id;
    DELETE FROM patient_search_pairs AS pairs USING old_rows
    WHERE pairs.clinic_id = old_rows.clinic_id AND pairs.patient_id = old_rows.id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO patient_status_counts AS counts (clinic_id, status, total)
    SELECT clinic_id, status, count(*)::int FROM new_rows GROUP BY clinic_id, status
    ON CONFLICT (clinic_id, status) DO UPDATE SET total = counts.total + excluded.total;
    -- The words are worked out once, for the terms and for the pairs. Every step is per patient
    -- (grouped, or unnested from the patient's own row), so no plan here depends on a table's size.
    WITH words AS MATERIALIZED (
      SELECT new_rows.clinic_id, new_rows.id, new_rows.name, new_rows.status, words.word
      FROM new_rows CROSS JOIN LATERAL patient_search_words(new_rows.name, new_rows.email, new_rows.phone) AS words(word)
    ), added AS (
      INSERT INTO patient_search_terms (clinic_id, term, patient_id, prefix, name, status)
      SELECT clinic_id, word, id, left(word, 2), name, status FROM words
      ON CONFLICT DO NOTHING
    )
    INSERT INTO patient_search_pairs (clinic_id, patient_id, prefix_a, prefix_b, name, terms_a, terms_b, status)
    SELECT clinic_id, id, prefixes[a], prefixes[b], name, terms[a], terms[b], status
    FROM (
      SELECT clinic_id, id, name, status, array_agg(prefix ORDER BY prefix) AS prefixes,
        array_agg(terms ORDER BY prefix) AS terms
      FROM (
        SELECT clinic_id, id, name, status, left(word, 2) COLLATE "C" AS prefix,
          ' ' || string_agg(word, ' ' ORDER BY word) || ' ' AS terms
        FROM words WHERE length(word) >= 2 AND word !~ '^[0-9]'
        GROUP BY clinic_id, id, name, status, left(word, 2) COLLATE "C"
      ) AS starts
      GROUP BY clinic_id, id, name, status
    ) AS patient
    CROSS JOIN LATERAL generate_subscripts(prefixes, 1) AS a
    CROSS JOIN LATERAL generate_subscripts(prefixes, 1) AS b
    WHERE a < b;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A patient's new name, e-mail or phone gives their appointments new words. Row by row, and from the
-- new values themselves: this fires before the statement's own trigger has rewritten
-- patient_search_terms, and only for the rows whose words can have changed.
CREATE FUNCTION patients_after_rename() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
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
--> statement-breakpoint
CREATE TRIGGER patients_after_rename AFTER UPDATE OF name, email, phone ON patients FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.email IS DISTINCT FROM NEW.email OR OLD.phone IS DISTINCT FROM NEW.phone)
  EXECUTE FUNCTION patients_after_rename();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION appointments_after_write() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  changed record;
BEGIN
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
$$;
--> statement-breakpoint
-- What is already there.
INSERT INTO patient_search_pairs (clinic_id, patient_id, prefix_a, prefix_b, name, terms_a, terms_b, status)
SELECT clinic_id, patient_id, prefixes[a], prefixes[b], name, terms[a], terms[b], status
FROM (
  SELECT clinic_id, patient_id, name, status, array_agg(prefix ORDER BY prefix) AS prefixes,
    array_agg(terms ORDER BY prefix) AS terms
  FROM (
    SELECT clinic_id, patient_id, name, status, prefix, ' ' || string_agg(term, ' ' ORDER BY term) || ' ' AS terms
    FROM patient_search_terms WHERE length(term) >= 2 AND term !~ '^[0-9]'
    GROUP BY clinic_id, patient_id, name, status, prefix
  ) AS starts
  GROUP BY clinic_id, patient_id, name, status
) AS patient
CROSS JOIN LATERAL generate_subscripts(prefixes, 1) AS a
CROSS JOIN LATERAL generate_subscripts(prefixes, 1) AS b
WHERE a < b;
--> statement-breakpoint
INSERT INTO appointment_search_terms (clinic_id, appointment_id, prefix, terms, date, time, status, dentist_id, patient_id, treatment)
SELECT appointments.clinic_id, appointments.id, starts.prefix, starts.terms, appointments.date, appointments.time,
  appointments.status, appointments.dentist_id, appointments.patient_id, appointments.treatment
FROM appointments JOIN (
  SELECT clinic_id, patient_id, prefix, ' ' || string_agg(term, ' ' ORDER BY term) || ' ' AS terms
  FROM patient_search_terms
  WHERE length(term) >= 2 AND term !~ '^[0-9]'
  GROUP BY clinic_id, patient_id, prefix
) AS starts ON starts.clinic_id = appointments.clinic_id AND starts.patient_id = appointments.patient_id;
--> statement-breakpoint
-- The indexes after the rows: one sorted build each.
CREATE INDEX "appointment_search_terms_appointment_idx" ON "appointment_search_terms" USING btree ("clinic_id","appointment_id");
--> statement-breakpoint
CREATE INDEX "appointment_search_terms_date_idx" ON "appointment_search_terms" USING btree ("clinic_id","prefix","date","time","appointment_id","status","dentist_id","treatment","terms");
--> statement-breakpoint
CREATE INDEX "appointment_search_terms_dentist_idx" ON "appointment_search_terms" USING btree ("clinic_id","prefix","dentist_id","date","time","appointment_id","status","treatment","terms");
--> statement-breakpoint
CREATE INDEX "patient_search_pairs_prefix_idx" ON "patient_search_pairs" USING btree ("clinic_id","prefix_a","prefix_b","name","patient_id","terms_a","terms_b","status");
