-- Online booking (docs/product.md, Online booking): each clinic gets its address on the web, the slug
-- of its booking page `/book/<slug>`, and its rules for online booking (null: the defaults, off).
CREATE FUNCTION clinic_slug_of(clinic_name text, clinic integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  base text := coalesce(nullif(left(trim(BOTH '-' FROM regexp_replace(lower(clinic_name), '[^a-z0-9]+', '-', 'g')), 50), ''), 'clinic');
BEGIN
  base := trim(BOTH '-' FROM base);
  IF base = '' THEN base := 'clinic'; END IF;
  -- A name another clinic's address already has gets this clinic's number after it.
  IF EXISTS (SELECT 1 FROM clinics WHERE slug = base AND id <> clinic) THEN
    RETURN base || '-' || clinic;
  END IF;
  RETURN base;
END $$;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "slug" text;--> statement-breakpoint
UPDATE "clinics" SET "slug" = clinic_slug_of("name", "id") WHERE "slug" IS NULL;--> statement-breakpoint
ALTER TABLE "clinics" ALTER COLUMN "slug" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "clinics" ADD CONSTRAINT "clinics_slug_check"
  CHECK ("slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length("slug") <= 60);--> statement-breakpoint
CREATE UNIQUE INDEX "clinics_slug_unique" ON "clinics" ("slug");--> statement-breakpoint
-- A clinic made without an address (seeds, imports) gets one from its name.
CREATE FUNCTION clinics_give_slug() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.slug IS NULL THEN NEW.slug := clinic_slug_of(NEW.name, NEW.id); END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER clinics_slug BEFORE INSERT ON clinics FOR EACH ROW EXECUTE FUNCTION clinics_give_slug();--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "online_booking" jsonb;
