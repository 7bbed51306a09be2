-- A sign-in's second-step token (the password step's `mfa_token`) opens one sign-in: once it has
-- signed someone in, it is spent, and a copy of it opens nothing for the rest of its five minutes.
CREATE TABLE "spent_sign_in_steps" (
  "jti" text PRIMARY KEY NOT NULL,
  "expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "spent_sign_in_steps_expires_idx" ON "spent_sign_in_steps" USING btree ("expires_at");
