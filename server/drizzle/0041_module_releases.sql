-- Module releases (docs/architecture.md, Module releases): each build a team publishes is kept
-- under /modules/<id>/<release>/ and recorded here; the platform points the default (clinic_id null)
-- or one clinic at a release, one pointer each, moved atomically. Every publish and every pointer
-- moved is kept in module_release_events, the platform's own trail.
CREATE TABLE "module_releases" (
  "module_id" text NOT NULL,
  "release" text NOT NULL,
  "version" text NOT NULL,
  "built_at" timestamp with time zone NOT NULL,
  "commit" text,
  "shared" jsonb NOT NULL,
  "integrity" text NOT NULL CHECK ("integrity" LIKE 'sha384-%'),
  "published_at" timestamp with time zone NOT NULL DEFAULT now(),
  "published_by" text NOT NULL,
  PRIMARY KEY ("module_id", "release")
);--> statement-breakpoint
CREATE TABLE "module_pointers" (
  "module_id" text NOT NULL,
  "clinic_id" integer REFERENCES "clinics" ("id") ON DELETE CASCADE,
  "release" text NOT NULL,
  "pointed_at" timestamp with time zone NOT NULL DEFAULT now(),
  FOREIGN KEY ("module_id", "release") REFERENCES "module_releases" ("module_id", "release")
);--> statement-breakpoint
-- One default and one pointer a clinic, per module (a null clinic_id is the default).
CREATE UNIQUE INDEX "module_pointers_one" ON "module_pointers" ("module_id", coalesce("clinic_id", 0));--> statement-breakpoint
CREATE TABLE "module_release_events" (
  "id" serial PRIMARY KEY,
  "module_id" text NOT NULL,
  "release" text NOT NULL,
  "action" text NOT NULL CHECK ("action" IN ('published', 'pointed', 'unpointed')),
  "clinic_id" integer REFERENCES "clinics" ("id") ON DELETE SET NULL,
  "actor" text NOT NULL,
  "at" timestamp with time zone NOT NULL DEFAULT now()
);--> statement-breakpoint
CREATE INDEX "module_release_events_module" ON "module_release_events" ("module_id", "at" DESC);
