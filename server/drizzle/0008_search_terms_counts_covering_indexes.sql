CREATE TABLE "appointment_day_counts" (
	"clinic_id" integer NOT NULL,
	"status" text NOT NULL,
	"date" date NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "appointment_day_counts_clinic_id_status_date_pk" PRIMARY KEY("clinic_id","status","date")
);
--> statement-breakpoint
CREATE TABLE "patient_search_terms" (
	"clinic_id" integer NOT NULL,
	"term" text COLLATE "C" NOT NULL,
	"patient_id" integer NOT NULL,
	"prefix" text COLLATE "C" NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	CONSTRAINT "patient_search_terms_clinic_id_term_patient_id_pk" PRIMARY KEY("clinic_id","term","patient_id")
);
--> statement-breakpoint
CREATE TABLE "patient_status_counts" (
	"clinic_id" integer NOT NULL,
	"status" text NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "patient_status_counts_clinic_id_status_pk" PRIMARY KEY("clinic_id","status")
);
--> statement-breakpoint
DROP INDEX "patients_search_trgm_idx";--> statement-breakpoint
DROP INDEX "appointments_date_idx";--> statement-breakpoint
DROP INDEX "appointments_dentist_date_idx";--> statement-breakpoint
DROP INDEX "appointments_status_date_idx";--> statement-breakpoint
DROP INDEX "appointments_patient_date_idx";--> statement-breakpoint
ALTER TABLE "patient_search_terms" ADD CONSTRAINT "patient_search_terms_patient_fk" FOREIGN KEY ("clinic_id","patient_id") REFERENCES "public"."patients"("clinic_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patient_search_terms_patient_idx" ON "patient_search_terms" USING btree ("clinic_id","patient_id","term");--> statement-breakpoint
CREATE INDEX "patient_search_terms_prefix_idx" ON "patient_search_terms" USING btree ("clinic_id","prefix","name","patient_id","term","status");--> statement-breakpoint
CREATE INDEX "appointments_date_idx" ON "appointments" USING btree ("clinic_id","date","time","id","status","dentist_id","patient_id","treatment");--> statement-breakpoint
CREATE INDEX "appointments_dentist_date_idx" ON "appointments" USING btree ("clinic_id","dentist_id","date","time","id","status","patient_id","treatment");--> statement-breakpoint
CREATE INDEX "appointments_status_date_idx" ON "appointments" USING btree ("clinic_id","status","date","time","id","dentist_id","patient_id","treatment");--> statement-breakpoint
CREATE INDEX "appointments_patient_date_idx" ON "appointments" USING btree ("clinic_id","patient_id","date","time","id");