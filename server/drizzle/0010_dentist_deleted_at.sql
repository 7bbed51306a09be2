DROP INDEX "dentists_license_unique";--> statement-breakpoint
DROP INDEX "dentists_email_unique";--> statement-breakpoint
ALTER TABLE "dentists" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "dentists_license_unique" ON "dentists" USING btree ("clinic_id",lower("license")) WHERE "dentists"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "dentists_email_unique" ON "dentists" USING btree ("clinic_id",lower("email")) WHERE "dentists"."deleted_at" is null;