-- Online booking's holds (docs/product.md, Online booking): a time a patient picked on the booking
-- page is held for a few minutes while they confirm who they are, for the desk as well. A hold holds
-- its chair (the visit and turnover) and its dentist's part like a visit; once its time has passed
-- (`expires_at`) it holds nothing, and the next hold of its clinic's day removes it. A hold and the
-- visits and holds of its clinic's day take turns on one advisory lock ('holds:<clinic>:<date>'),
-- taken by the visits' trigger when the clinic books online and by each new hold, so no two of
-- them take one minute of a chair or a dentist, across processes.
CREATE TABLE "booking_holds" (
  "clinic_id" integer NOT NULL REFERENCES "clinics"("id"),
  "id" serial NOT NULL,
  -- The hold's public id is a random token; only its SHA-256 is kept.
  "token_hash" text NOT NULL,
  "dentist_id" integer NOT NULL,
  "chair_id" integer NOT NULL,
  "treatment" text NOT NULL,
  "date" date NOT NULL,
  "time" text NOT NULL,
  "duration" integer NOT NULL,
  "turnover" integer DEFAULT 0 NOT NULL,
  "dentist_from" integer,
  "dentist_to" integer,
  "expires_at" timestamp with time zone NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  -- Who asked (filled when the code is sent), and the code's hash, expiry and tries.
  "contact" jsonb,
  "code_hash" text,
  "code_expires_at" timestamp with time zone,
  "code_tries" integer DEFAULT 0 NOT NULL,
  "chair_span" int4range GENERATED ALWAYS AS (int4range(
    ("date" - date '2000-01-01') * 1440 + substr("time", 1, 2)::int * 60 + substr("time", 4, 2)::int,
    ("date" - date '2000-01-01') * 1440 + substr("time", 1, 2)::int * 60 + substr("time", 4, 2)::int + "duration" + "turnover")) STORED,
  "dentist_span" int4range GENERATED ALWAYS AS (int4range(
    ("date" - date '2000-01-01') * 1440 + substr("time", 1, 2)::int * 60 + substr("time", 4, 2)::int + coalesce("dentist_from", 0),
    ("date" - date '2000-01-01') * 1440 + substr("time", 1, 2)::int * 60 + substr("time", 4, 2)::int + coalesce("dentist_to", "duration"))) STORED,
  CONSTRAINT "booking_holds_pk" PRIMARY KEY ("clinic_id", "id"),
  CONSTRAINT "booking_holds_dentist_fk" FOREIGN KEY ("clinic_id", "dentist_id") REFERENCES "dentists"("clinic_id", "id"),
  CONSTRAINT "booking_holds_chair_fk" FOREIGN KEY ("clinic_id", "chair_id") REFERENCES "chairs"("clinic_id", "id"),
  CONSTRAINT "booking_holds_time_check" CHECK ("time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  CONSTRAINT "booking_holds_duration_check" CHECK ("duration" BETWEEN 5 AND 480),
  CONSTRAINT "booking_holds_tries_check" CHECK ("code_tries" BETWEEN 0 AND 5)
);--> statement-breakpoint
CREATE UNIQUE INDEX "booking_holds_token_unique" ON "booking_holds" ("token_hash");--> statement-breakpoint
CREATE INDEX "booking_holds_day_idx" ON "booking_holds" ("clinic_id", "date");--> statement-breakpoint
-- Two holds never share a minute of a chair or a dentist; an expired one is removed (under the
-- day's lock) before a new hold of its day is written, so it does not count here.
ALTER TABLE "booking_holds" ADD CONSTRAINT "booking_holds_chair_excl" EXCLUDE USING gist (
  "clinic_id" WITH =, "chair_id" WITH =, "chair_span" WITH &&);--> statement-breakpoint
ALTER TABLE "booking_holds" ADD CONSTRAINT "booking_holds_dentist_excl" EXCLUDE USING gist (
  "clinic_id" WITH =, "dentist_id" WITH =, "dentist_span" WITH &&);--> statement-breakpoint
-- A visit placed while a live hold has its chair or its dentist's minutes is refused
-- ('booking_holds_time'), and a visit given a chair is given one no hold has.
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
  online boolean := false;
  held_id integer;
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
        (s.dentist_parts -> NEW.treatment ->> 'to')::integer,
        coalesce((s.online_booking ->> 'enabled')::boolean, false)
      INTO clinic_turnover, part_from, part_to, online
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
  -- A clinic that books online: its day's holds and this visit take turns (booking_holds below), so
  -- a time a patient holds is taken by nobody else until the hold ends, across processes.
  IF online AND placed AND NOT keeping AND NEW.status <> 'cancelled' THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('holds:' || NEW.clinic_id || ':' || NEW.date, 0));
  ELSE
    online := false;
  END IF;
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
      ) AND NOT (online AND EXISTS (
        SELECT 1 FROM booking_holds h
        WHERE h.clinic_id = NEW.clinic_id AND h.chair_id = candidate AND h.expires_at > now()
          AND h.chair_span && int4range(starts, starts + NEW.duration + NEW.turnover)
      )) THEN
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
  IF online THEN
    SELECT h.id INTO held_id FROM booking_holds h
    WHERE h.clinic_id = NEW.clinic_id AND h.expires_at > now() AND (
      (h.chair_id = NEW.chair_id AND h.chair_span && int4range(starts, starts + NEW.duration + NEW.turnover))
      OR (h.dentist_id = NEW.dentist_id AND h.dentist_span && int4range(
        starts + coalesce(NEW.dentist_from, 0), starts + coalesce(NEW.dentist_to, NEW.duration))))
    LIMIT 1;
    IF held_id IS NOT NULL THEN
      RAISE EXCEPTION 'the time is held by an online booking' USING ERRCODE = 'exclusion_violation',
        CONSTRAINT = 'booking_holds_time', TABLE = 'appointments';
    END IF;
  END IF;
  RETURN NEW;
END
$$;
