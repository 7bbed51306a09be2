-- What staff browsers report of a module that failed to load or draw (docs/architecture.md, Module
-- releases): the module, its release, the phase and the message, counted on the Modules page.
CREATE TABLE "client_errors" (
  "clinic_id" integer NOT NULL REFERENCES "clinics" ("id") ON DELETE CASCADE,
  "id" serial NOT NULL,
  "module_id" text NOT NULL,
  "release" text,
  "phase" text NOT NULL CHECK ("phase" IN ('load', 'screen', 'render')),
  "message" text NOT NULL,
  "user_id" integer,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY ("clinic_id", "id")
);--> statement-breakpoint
CREATE INDEX "client_errors_recent" ON "client_errors" ("clinic_id", "created_at");
