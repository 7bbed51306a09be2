-- The recall list's filters on the large clinic (bench/explain.mjs): whether a visit of the recall's
-- treatment is booked is an index probe per patient, not a pass over every visit to come; the
-- dentist last seen narrows the list in its own index. The statistics of the new table are taken
-- at once, so the first list is planned on them, not on an empty table's guess.
CREATE INDEX "appointments_patient_treatment_booked_idx" ON "appointments" ("clinic_id", "patient_id", "treatment", "date")
  WHERE "status" IN ('pending', 'confirmed');--> statement-breakpoint
CREATE INDEX "patient_recalls_dentist_idx" ON "patient_recalls" ("clinic_id", "last_dentist_id", "follow_up_on")
  WHERE "active";--> statement-breakpoint
ANALYZE "patient_recalls";--> statement-breakpoint
ANALYZE "recall_types";
