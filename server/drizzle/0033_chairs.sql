-- Chairs: the clinic's operatories (docs/product.md, Chairs). Each has a name, a place in the
-- clinic's order, whether it is in service and bookable online, and an optional default dentist.
-- A retired chair keeps its row (and, later, the visits that name it); its name may be used again.
CREATE TABLE "chairs" (
  "clinic_id" integer NOT NULL REFERENCES "clinics"("id"),
  "id" serial NOT NULL,
  "name" text NOT NULL,
  "position" integer NOT NULL,
  "in_service" boolean DEFAULT true NOT NULL,
  "bookable_online" boolean DEFAULT true NOT NULL,
  "default_dentist_id" integer,
  "retired_at" timestamp with time zone,
  "version" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "chairs_pk" PRIMARY KEY ("clinic_id", "id"),
  CONSTRAINT "chairs_default_dentist_fk" FOREIGN KEY ("clinic_id", "default_dentist_id")
    REFERENCES "dentists"("clinic_id", "id"),
  CONSTRAINT "chairs_name_check" CHECK (length(btrim("name")) BETWEEN 1 AND 40),
  CONSTRAINT "chairs_position_check" CHECK ("position" >= 1)
);--> statement-breakpoint
CREATE UNIQUE INDEX "chairs_name_unique" ON "chairs" ("clinic_id", lower("name")) WHERE "retired_at" IS NULL;--> statement-breakpoint
CREATE INDEX "chairs_order_idx" ON "chairs" ("clinic_id", "position") WHERE "retired_at" IS NULL;--> statement-breakpoint
CREATE TRIGGER chairs_version BEFORE UPDATE ON chairs FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at');--> statement-breakpoint
-- One chair for each active dentist that is no chair's default yet, named and ordered after the
-- clinic's chairs ("Chair 1…N"), with that dentist as its default: what a clinic starts with, so its
-- day is planned as it was when it knew only dentists. Used here, by the seeds and by an import.
CREATE FUNCTION chairs_for_dentists(clinic integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  made integer;
BEGIN
  WITH taken AS (
    SELECT coalesce(max(position), 0) AS last_place, count(*) AS chairs FROM chairs
    WHERE clinic_id = clinic AND retired_at IS NULL
  ), needing AS (
    SELECT d.id, row_number() OVER (ORDER BY d.id) AS n FROM dentists d
    WHERE d.clinic_id = clinic AND d.status = 'active' AND d.deleted_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM chairs c WHERE c.clinic_id = clinic AND c.default_dentist_id = d.id
        AND c.retired_at IS NULL)
  )
  INSERT INTO chairs (clinic_id, name, position, default_dentist_id)
  SELECT clinic, 'Chair ' || (taken.chairs + needing.n), taken.last_place + needing.n, needing.id
  FROM needing CROSS JOIN taken;
  GET DIAGNOSTICS made = ROW_COUNT;
  RETURN made;
END
$$;--> statement-breakpoint
SELECT chairs_for_dentists(id) FROM clinics;
