-- Automatic recall reminders: a clinic's setting (off until it is turned on) and how many days before
-- the due date the reminder goes. Each patient's recall remembers the due date its automatic reminder
-- was queued for: the job claims a recall by changing that column only where it differs from the due
-- date, so two API processes running the job at once queue one reminder, never two (the second
-- waits on the first's row lock and then finds the recall already claimed).
ALTER TABLE "clinic_settings" ADD COLUMN "recall_reminders_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "recall_reminder_days_before" integer DEFAULT 14 NOT NULL;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD CONSTRAINT "clinic_settings_recall_reminder_days_check"
  CHECK ("recall_reminder_days_before" BETWEEN 1 AND 90);--> statement-breakpoint
ALTER TABLE "patient_recalls" ADD COLUMN "auto_reminded_for" date;
