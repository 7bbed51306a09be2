-- Visits written in bulk by several transactions at once (the large seed on a PostgreSQL server,
-- docs/architecture.md "Database rules"), each its share of the patients: what their statements
-- write of one patient (the visits, their search words, the recalls) no other statement touches,
-- but the day counts are shared. An inserted visit's statement now counts its days after writing its
-- search words, in the order of the counts' key, so a second writer waits for the first only at the
-- end of its statement (before, it waited ahead of writing its words), and never in a circle. What
-- is written is unchanged (migration 0038's function, otherwise as it was).
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
    -- Last, and in the order of their key: the only rows here that two writers of different
    -- patients' visits share, so one waits for the other only at its end, and never in a circle.
    INSERT INTO appointment_day_counts AS counts (clinic_id, status, date, total)
    SELECT clinic_id, status, date, count(*)::int FROM new_rows GROUP BY clinic_id, status, date
    ORDER BY clinic_id, status, date
    ON CONFLICT (clinic_id, status, date) DO UPDATE SET total = counts.total + excluded.total;
  END IF;
  RETURN NULL;
END
$$;
