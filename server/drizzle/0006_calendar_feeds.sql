CREATE TABLE "calendar_feeds" (
	"clinic_id" integer NOT NULL,
	"dentist_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feeds_clinic_id_dentist_id_pk" PRIMARY KEY("clinic_id","dentist_id")
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_dentist_fk" FOREIGN KEY ("clinic_id","dentist_id") REFERENCES "public"."dentists"("clinic_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_token_unique" ON "calendar_feeds" USING btree ("token_hash");