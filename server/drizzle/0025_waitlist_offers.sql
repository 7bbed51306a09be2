-- A waitlisted patient told of a freed time (Fill this time's Tell them): one record an entry, dentist,
-- day and start, written in the transaction that queues the messages. The database keeps "told once":
-- a second offer of the same time, from this desk or another at the same moment, is refused.

CREATE TABLE "waitlist_offers" (
  "clinic_id" integer NOT NULL REFERENCES "clinics"("id"),
  "entry_id" integer NOT NULL,
  -- The dentist, day and start of the time told of (no reference: this is history, kept as it was said).
  "dentist_id" integer NOT NULL,
  "date" date NOT NULL,
  -- 'HH:mm', as a visit's start is kept.
  "time" text NOT NULL,
  -- The channels the messages went by: e-mail, SMS or both.
  "channels" text[] NOT NULL,
  "created_by" integer,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  -- Told once: the entry, the dentist, the day and the start (clinic_id leads, as in every clinic's table;
  -- an entry belongs to one clinic, so this is UNIQUE (entry_id, dentist_id, date, time)).
  CONSTRAINT "waitlist_offers_pk" PRIMARY KEY ("clinic_id", "entry_id", "dentist_id", "date", "time"),
  -- An entry booked or taken off takes its offers with it.
  CONSTRAINT "waitlist_offers_entry_fk" FOREIGN KEY ("clinic_id", "entry_id")
    REFERENCES "waitlist_entries"("clinic_id", "id") ON DELETE CASCADE,
  CONSTRAINT "waitlist_offers_created_by_fk" FOREIGN KEY ("clinic_id", "created_by")
    REFERENCES "users"("clinic_id", "id") ON DELETE SET NULL ("created_by"),
  CONSTRAINT "waitlist_offers_time_check" CHECK ("time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  CONSTRAINT "waitlist_offers_channels_check" CHECK (
    cardinality("channels") BETWEEN 1 AND 2 AND "channels" <@ ARRAY['email', 'sms']::text[]
    AND array_position("channels", NULL) IS NULL)
);
