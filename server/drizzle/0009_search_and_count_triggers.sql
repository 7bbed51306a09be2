-- The words a patient search matches: the words of the name and of the e-mail's local part, split
-- at spaces and punctuation, the whole e-mail address, all lower-cased, and the phone's digits from
-- each group of digits on ('(555) 010-0447' gives 5550100447, 0100447 and 0447), so a number is
-- found by its start, by its last digits or from any group. patientSearch.ts splits what staff type
-- with the same expressions.
CREATE FUNCTION patient_search_words(name text, email text, phone text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT word COLLATE "C" FROM (
    SELECT regexp_split_to_table(lower(name), '[[:space:][:punct:]]+') AS word
    UNION ALL SELECT regexp_split_to_table(lower(split_part(coalesce(email, ''), '@', 1)), '[[:space:][:punct:]]+')
    UNION ALL SELECT lower(trim(email))
    UNION ALL SELECT array_to_string(groups[position:], '')
      FROM (SELECT array_remove(regexp_split_to_array(phone, '[^0-9]+'), '') AS groups) AS digits,
        generate_subscripts(groups, 1) AS position
  ) AS words
  WHERE word <> ''
$$;
--> statement-breakpoint
-- Statement-level triggers with transition tables: a bulk load (the large seed, an import) costs one
-- grouped statement, a single write a few rows.
CREATE FUNCTION patients_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE patient_status_counts AS counts SET total = counts.total - gone.total
    FROM (SELECT clinic_id, status, count(*)::int AS total FROM old_rows GROUP BY clinic_id, status) AS gone
    WHERE counts.clinic_id = gone.clinic_id AND counts.status = gone.status;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM patient_search_terms AS terms USING old_rows
    WHERE terms.clinic_id = old_rows.clinic_id AND terms.patient_id = old_rows.id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO patient_status_counts AS counts (clinic_id, status, total)
    SELECT clinic_id, status, count(*)::int FROM new_rows GROUP BY clinic_id, status
    ON CONFLICT (clinic_id, status) DO UPDATE SET total = counts.total + excluded.total;
    INSERT INTO patient_search_terms (clinic_id, term, patient_id, prefix, name, status)
    SELECT new_rows.clinic_id, words.word, new_rows.id, left(words.word, 2), new_rows.name, new_rows.status
    FROM new_rows CROSS JOIN LATERAL patient_search_words(new_rows.name, new_rows.email, new_rows.phone) AS words(word)
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER patients_after_insert AFTER INSERT ON patients REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION patients_after_write();
--> statement-breakpoint
CREATE TRIGGER patients_after_update AFTER UPDATE ON patients REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION patients_after_write();
--> statement-breakpoint
CREATE TRIGGER patients_after_delete AFTER DELETE ON patients REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION patients_after_write();
--> statement-breakpoint
CREATE FUNCTION appointments_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE appointment_day_counts AS counts SET total = counts.total - gone.total
    FROM (SELECT clinic_id, status, date, count(*)::int AS total FROM old_rows GROUP BY clinic_id, status, date) AS gone
    WHERE counts.clinic_id = gone.clinic_id AND counts.status = gone.status AND counts.date = gone.date;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO appointment_day_counts AS counts (clinic_id, status, date, total)
    SELECT clinic_id, status, date, count(*)::int FROM new_rows GROUP BY clinic_id, status, date
    ON CONFLICT (clinic_id, status, date) DO UPDATE SET total = counts.total + excluded.total;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER appointments_after_insert AFTER INSERT ON appointments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION appointments_after_write();
--> statement-breakpoint
CREATE TRIGGER appointments_after_update AFTER UPDATE ON appointments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION appointments_after_write();
--> statement-breakpoint
CREATE TRIGGER appointments_after_delete AFTER DELETE ON appointments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION appointments_after_write();
--> statement-breakpoint
-- What is already there.
INSERT INTO patient_search_terms (clinic_id, term, patient_id, prefix, name, status)
SELECT patients.clinic_id, words.word, patients.id, left(words.word, 2), patients.name, patients.status
FROM patients CROSS JOIN LATERAL patient_search_words(patients.name, patients.email, patients.phone) AS words(word)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO patient_status_counts (clinic_id, status, total)
SELECT clinic_id, status, count(*)::int FROM patients GROUP BY clinic_id, status;
--> statement-breakpoint
INSERT INTO appointment_day_counts (clinic_id, status, date, total)
SELECT clinic_id, status, date, count(*)::int FROM appointments GROUP BY clinic_id, status, date;
