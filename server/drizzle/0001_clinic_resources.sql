CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "appointments" (
	"clinic_id" integer NOT NULL,
	"id" serial NOT NULL,
	"patient_id" integer NOT NULL,
	"dentist_id" integer NOT NULL,
	"date" date NOT NULL,
	"time" text NOT NULL,
	"treatment" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointments_clinic_id_id_pk" PRIMARY KEY("clinic_id","id"),
	CONSTRAINT "appointments_status_check" CHECK ("appointments"."status" in ('pending', 'confirmed', 'cancelled', 'completed')),
	CONSTRAINT "appointments_time_check" CHECK ("appointments"."time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$')
);
--> statement-breakpoint
CREATE TABLE "availability" (
	"clinic_id" integer NOT NULL,
	"id" serial NOT NULL,
	"dentist_id" integer NOT NULL,
	"date" date NOT NULL,
	"time_slots" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "availability_clinic_id_id_pk" PRIMARY KEY("clinic_id","id")
);
--> statement-breakpoint
CREATE TABLE "clinic_settings" (
	"clinic_id" integer PRIMARY KEY NOT NULL,
	"practice_name" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"working_hours" jsonb NOT NULL,
	"notifications" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dentists" (
	"clinic_id" integer NOT NULL,
	"id" serial NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"specialty" text NOT NULL,
	"license" text NOT NULL,
	"years_of_experience" integer DEFAULT 0 NOT NULL,
	"working_days" text DEFAULT '12345' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dentists_clinic_id_id_pk" PRIMARY KEY("clinic_id","id"),
	CONSTRAINT "dentists_status_check" CHECK ("dentists"."status" in ('active', 'inactive'))
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"clinic_id" integer NOT NULL,
	"id" serial NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text NOT NULL,
	"date_of_birth" date,
	"address" text,
	"emergency_contact" text,
	"medical_history" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patients_clinic_id_id_pk" PRIMARY KEY("clinic_id","id"),
	CONSTRAINT "patients_status_check" CHECK ("patients"."status" in ('active', 'inactive'))
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_fk" FOREIGN KEY ("clinic_id","patient_id") REFERENCES "public"."patients"("clinic_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_dentist_fk" FOREIGN KEY ("clinic_id","dentist_id") REFERENCES "public"."dentists"("clinic_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "availability" ADD CONSTRAINT "availability_dentist_fk" FOREIGN KEY ("clinic_id","dentist_id") REFERENCES "public"."dentists"("clinic_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD CONSTRAINT "clinic_settings_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dentists" ADD CONSTRAINT "dentists_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_no_double_booking" ON "appointments" USING btree ("clinic_id","dentist_id","date","time") WHERE "appointments"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "appointments_date_idx" ON "appointments" USING btree ("clinic_id","date","time");--> statement-breakpoint
CREATE INDEX "appointments_dentist_date_idx" ON "appointments" USING btree ("clinic_id","dentist_id","date","time");--> statement-breakpoint
CREATE INDEX "appointments_status_date_idx" ON "appointments" USING btree ("clinic_id","status","date","time");--> statement-breakpoint
CREATE INDEX "appointments_patient_date_idx" ON "appointments" USING btree ("clinic_id","patient_id","date","time");--> statement-breakpoint
CREATE UNIQUE INDEX "availability_dentist_date_unique" ON "availability" USING btree ("clinic_id","dentist_id","date");--> statement-breakpoint
CREATE INDEX "availability_date_idx" ON "availability" USING btree ("clinic_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "dentists_license_unique" ON "dentists" USING btree ("clinic_id",lower("license"));--> statement-breakpoint
CREATE UNIQUE INDEX "dentists_email_unique" ON "dentists" USING btree ("clinic_id",lower("email"));--> statement-breakpoint
CREATE INDEX "dentists_name_idx" ON "dentists" USING btree ("clinic_id","name");--> statement-breakpoint
CREATE INDEX "dentists_specialty_idx" ON "dentists" USING btree ("clinic_id","specialty","name");--> statement-breakpoint
CREATE INDEX "patients_name_idx" ON "patients" USING btree ("clinic_id","name");--> statement-breakpoint
CREATE INDEX "patients_status_name_idx" ON "patients" USING btree ("clinic_id","status","name");--> statement-breakpoint
CREATE INDEX "patients_phone_idx" ON "patients" USING btree ("clinic_id","phone");--> statement-breakpoint
CREATE INDEX "patients_search_trgm_idx" ON "patients" USING gin (lower("name" || ' ' || coalesce("email", '') || ' ' || "phone") gin_trgm_ops);