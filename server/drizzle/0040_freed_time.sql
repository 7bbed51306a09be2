-- A visit a patient moves online leaves its old time to the desk, as a cancellation does
-- (docs/product.md, Online booking): the request keeps the time it freed (dentist, day, start,
-- length), since a moved visit no longer says where it was.
ALTER TABLE "booking_requests" ADD COLUMN "freed" jsonb;--> statement-breakpoint
UPDATE "booking_requests" r
  SET "freed" = jsonb_build_object('dentist_id', a.dentist_id, 'date', a.date::text, 'time', a.time,
    'duration', a.duration)
  FROM "appointments" a
  WHERE r.kind = 'freed' AND a.clinic_id = r.clinic_id AND a.id = r.appointment_id;--> statement-breakpoint
ALTER TABLE "booking_requests" ADD CONSTRAINT "booking_requests_freed_check"
  CHECK ("freed" IS NULL OR "kind" = 'freed');
