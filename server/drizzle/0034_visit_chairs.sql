-- Every visit holds a chair (docs/product.md, Chairs): the chair's time is the visit and the
-- clinic's turnover, the dentist's time is the treatment's dentist part, and the database keeps two
-- live visits from sharing a chair's minutes as it keeps them from sharing a dentist's or patient's.
ALTER TABLE "clinic_settings" ADD COLUMN "turnover_minutes" integer;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "dentist_parts" jsonb;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD CONSTRAINT "clinic_settings_turnover_check"
  CHECK ("turnover_minutes" BETWEEN 0 AND 60 AND "turnover_minutes" % 5 = 0);--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "chair_id" integer,
  ADD COLUMN "turnover" integer DEFAULT 0 NOT NULL,
  ADD COLUMN "dentist_from" integer,
  ADD COLUMN "dentist_to" integer;--> statement-breakpoint
-- A dentist with visits and no chair of their own (an inactive or deleted dentist, or one added
-- since chairs began) gets one, so every visit is placed in its dentist's chair and nothing that
-- exists collides: in service for an active dentist, out of service for an inactive one, retired
-- for a deleted one.
WITH needing AS (
  SELECT d.clinic_id, d.id, d.status, d.deleted_at,
    row_number() OVER (PARTITION BY d.clinic_id ORDER BY d.id) AS n
  FROM dentists d
  WHERE NOT EXISTS (SELECT 1 FROM chairs c WHERE c.clinic_id = d.clinic_id AND c.default_dentist_id = d.id)
    AND EXISTS (SELECT 1 FROM appointments a WHERE a.clinic_id = d.clinic_id AND a.dentist_id = d.id)
), taken AS (
  SELECT clinic_id, max(position) AS last_place, count(*) AS chairs FROM chairs GROUP BY clinic_id
)
INSERT INTO chairs (clinic_id, name, position, in_service, bookable_online, default_dentist_id, retired_at)
SELECT needing.clinic_id, 'Chair ' || (coalesce(taken.chairs, 0) + needing.n),
  coalesce(taken.last_place, 0) + needing.n,
  needing.status = 'active' AND needing.deleted_at IS NULL,
  needing.status = 'active' AND needing.deleted_at IS NULL,
  needing.id,
  CASE WHEN needing.deleted_at IS NOT NULL THEN now() END
FROM needing LEFT JOIN taken ON taken.clinic_id = needing.clinic_id;--> statement-breakpoint
-- Each visit in its dentist's chair (the one in use first, then the first in order).
UPDATE appointments SET chair_id = placed.chair_id
FROM (
  SELECT DISTINCT ON (clinic_id, default_dentist_id) clinic_id, default_dentist_id AS dentist_id, id AS chair_id
  FROM chairs WHERE default_dentist_id IS NOT NULL
  ORDER BY clinic_id, default_dentist_id, retired_at IS NOT NULL, position, id
) AS placed
WHERE appointments.clinic_id = placed.clinic_id AND appointments.dentist_id = placed.dentist_id;--> statement-breakpoint
ALTER TABLE "appointments" ALTER COLUMN "chair_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_chair_fk" FOREIGN KEY ("clinic_id", "chair_id")
  REFERENCES "chairs"("clinic_id", "id");--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_dentist_part_check" CHECK (
  ("dentist_from" IS NULL AND "dentist_to" IS NULL)
  OR (0 <= "dentist_from" AND "dentist_from" < "dentist_to" AND "dentist_to" <= "duration"));--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_turnover_check" CHECK ("turnover" BETWEEN 0 AND 120);--> statement-breakpoint
ALTER TABLE "appointments"
  ADD COLUMN "chair_span" "int4range" GENERATED ALWAYS AS (int4range(
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int,
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + duration + turnover)) STORED,
  ADD COLUMN "dentist_span" "int4range" GENERATED ALWAYS AS (int4range(
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + coalesce(dentist_from, 0),
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + coalesce(dentist_to, duration))) STORED;--> statement-breakpoint
-- The dentist's rule now holds the dentist's minutes only: one dentist may run two chairs whose
-- dentist parts do not meet. The chair's rule holds the visit and its turnover.
ALTER TABLE "appointments" DROP CONSTRAINT "appointments_dentist_time_excl";--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_dentist_time_excl" EXCLUDE USING gist (
  "clinic_id" WITH =, "dentist_id" WITH =, "dentist_span" WITH &&, (coalesce("overlap_group", "id")) WITH <>
) WHERE ("status" <> 'cancelled') DEFERRABLE INITIALLY IMMEDIATE;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_chair_time_excl" EXCLUDE USING gist (
  "clinic_id" WITH =, "chair_id" WITH =, "chair_span" WITH &&, (coalesce("overlap_group", "id")) WITH <>
) WHERE ("status" <> 'cancelled') DEFERRABLE INITIALLY IMMEDIATE;--> statement-breakpoint
-- When the dentist is needed in a visit lasting `duration` minutes whose treatment's part (Settings)
-- runs from minute `starts` to minute `ends`: that part cut at the visit's end; null when they are
-- needed throughout (no part, or one that covers the visit).
CREATE FUNCTION dentist_part_of(starts integer, ends integer, duration integer) RETURNS int4range
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN starts IS NOT NULL AND ends IS NOT NULL
      AND starts < least(ends, duration) AND (starts > 0 OR ends < duration)
    THEN int4range(starts, least(ends, duration)) END
$$;--> statement-breakpoint
-- The same for a clinic's treatment, read from its settings (the free times ask it).
CREATE FUNCTION dentist_part(clinic integer, treatment text, duration integer) RETURNS int4range
LANGUAGE sql STABLE AS $$
  SELECT dentist_part_of((s.dentist_parts -> treatment ->> 'from')::integer,
    (s.dentist_parts -> treatment ->> 'to')::integer, duration)
  FROM clinic_settings s WHERE s.clinic_id = clinic
$$;--> statement-breakpoint
-- What a write may do to a visit's time (migration 0015), and now its chair:
-- - a visit placed anew (booked, moved, lengthened, given another dentist, patient or chair, or
--   brought back from cancelled) leaves its kept overlap group and takes the clinic's turnover;
-- - a visit booked, or whose treatment or length changes, takes the treatment's dentist part;
-- - a visit with no chair gets a free one: its own chair if still free, the dentist's default
--   chair, then the first in order, among chairs in service; none free refuses the write as the
--   chair's exclusion constraint would;
-- - a live visit placed in a chair must find it in service and not retired.
-- An import (dental.keeping_overlaps on) keeps the groups, parts and turnover its file carries.
CREATE OR REPLACE FUNCTION appointments_hold_time() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keeping boolean := coalesce(current_setting('dental.keeping_overlaps', true), '') = 'on';
  placed boolean;
  reparted boolean;
  clinic_turnover integer;
  part_from integer;
  part_to integer;
  part int4range;
  starts integer;
  chosen integer;
  candidate integer;
  usable boolean;
BEGIN
  IF NEW.duration IS NULL THEN
    NEW.duration := treatment_minutes(NEW.clinic_id, NEW.treatment);
  END IF;
  placed := TG_OP = 'INSERT'
    OR (NEW.date, NEW.time, NEW.duration, NEW.dentist_id, NEW.patient_id, NEW.chair_id)
      IS DISTINCT FROM (OLD.date, OLD.time, OLD.duration, OLD.dentist_id, OLD.patient_id, OLD.chair_id)
    OR (OLD.status = 'cancelled' AND NEW.status <> 'cancelled');
  IF TG_OP = 'INSERT' THEN
    IF NOT keeping THEN NEW.overlap_group := NULL; END IF;
  ELSIF placed THEN
    NEW.overlap_group := NULL;
  ELSIF NOT keeping THEN
    NEW.overlap_group := OLD.overlap_group;
  END IF;
  reparted := NOT keeping AND (TG_OP = 'INSERT'
    OR (NEW.treatment, NEW.duration) IS DISTINCT FROM (OLD.treatment, OLD.duration));
  IF reparted OR (placed AND NOT keeping) THEN
    -- One read of the clinic's settings for both (a bulk insert pays it once a row).
    SELECT s.turnover_minutes, (s.dentist_parts -> NEW.treatment ->> 'from')::integer,
        (s.dentist_parts -> NEW.treatment ->> 'to')::integer
      INTO clinic_turnover, part_from, part_to
      FROM clinic_settings s WHERE s.clinic_id = NEW.clinic_id;
    IF reparted THEN
      part := dentist_part_of(part_from, part_to, NEW.duration);
      NEW.dentist_from := lower(part);
      NEW.dentist_to := upper(part);
    END IF;
    IF placed AND NOT keeping THEN
      NEW.turnover := coalesce(clinic_turnover, 0);
    END IF;
  END IF;
  starts := (NEW.date - date '2000-01-01') * 1440 + substr(NEW.time, 1, 2)::int * 60 + substr(NEW.time, 4, 2)::int;
  IF NEW.chair_id IS NULL AND NEW.status = 'cancelled' THEN
    SELECT c.id INTO chosen FROM chairs c WHERE c.clinic_id = NEW.clinic_id
    ORDER BY c.id = CASE WHEN TG_OP = 'UPDATE' THEN OLD.chair_id END DESC NULLS LAST,
      c.default_dentist_id = NEW.dentist_id DESC NULLS LAST, c.retired_at IS NULL DESC, c.position, c.id
    LIMIT 1;
    NEW.chair_id := chosen;
  ELSIF NEW.chair_id IS NULL THEN
    -- The chairs in the order they are given, each probed through the chairs' exclusion index until
    -- one is free: the first (the visit's own or its dentist's) usually is. One probe a chair keeps
    -- the plan an index probe whatever PL/pgSQL caches; an anti-join over the chairs did not.
    FOR candidate IN
      SELECT c.id FROM chairs c
      WHERE c.clinic_id = NEW.clinic_id AND c.retired_at IS NULL AND c.in_service
      ORDER BY c.id = CASE WHEN TG_OP = 'UPDATE' THEN OLD.chair_id END DESC NULLS LAST,
        c.default_dentist_id = NEW.dentist_id DESC NULLS LAST, c.position, c.id
      -- A chair being retired or taken out of service meanwhile is waited for, then left out.
      FOR KEY SHARE
    LOOP
      IF NOT EXISTS (
        SELECT 1 FROM appointments a
        WHERE a.clinic_id = NEW.clinic_id AND a.chair_id = candidate AND a.status <> 'cancelled'
          AND a.id <> NEW.id AND a.chair_span && int4range(starts, starts + NEW.duration + NEW.turnover)
      ) THEN
        chosen := candidate;
        EXIT;
      END IF;
    END LOOP;
    IF chosen IS NULL THEN
      RAISE EXCEPTION 'no chair is free for this visit' USING ERRCODE = 'exclusion_violation',
        CONSTRAINT = 'appointments_chair_time_excl', TABLE = 'appointments';
    END IF;
    NEW.chair_id := chosen;
  ELSIF placed AND NOT keeping AND NEW.status <> 'cancelled' THEN
    SELECT c.retired_at IS NULL AND c.in_service INTO usable FROM chairs c
    WHERE c.clinic_id = NEW.clinic_id AND c.id = NEW.chair_id
    FOR KEY SHARE;
    IF usable IS FALSE THEN
      RAISE EXCEPTION 'the chair is not in service' USING ERRCODE = 'check_violation',
        CONSTRAINT = 'appointments_chair_in_service', TABLE = 'appointments';
    END IF;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- A dentist added to a clinic gets a chair of their own, as every dentist did when chairs began:
-- the first free name "Chair N" from the number of chairs in use, last in the order, with them as
-- its default. Admins rename, share or retire it in Settings.
CREATE FUNCTION chair_for_dentist(clinic integer, dentist integer) RETURNS integer LANGUAGE sql AS $$
  INSERT INTO chairs (clinic_id, name, position, default_dentist_id)
  SELECT clinic, 'Chair ' || n,
    coalesce((SELECT max(position) FROM chairs WHERE clinic_id = clinic AND retired_at IS NULL), 0) + 1, dentist
  FROM generate_series((SELECT count(*) + 1 FROM chairs WHERE clinic_id = clinic AND retired_at IS NULL)::int, 100000) AS n
  WHERE NOT EXISTS (SELECT 1 FROM chairs c WHERE c.clinic_id = clinic AND c.retired_at IS NULL
    AND lower(c.name) = lower('Chair ' || n))
  ORDER BY n LIMIT 1
  RETURNING id
$$;
