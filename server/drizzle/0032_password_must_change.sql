-- A password someone else chose for an account (an imported clinic's one-time admin passwords) opens
-- one thing: choosing the account's own, before anything else.
ALTER TABLE "users" ADD COLUMN "password_must_change" boolean DEFAULT false NOT NULL;
