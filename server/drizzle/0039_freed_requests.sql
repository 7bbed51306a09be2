-- A visit a patient cancels online leaves its time to the desk (docs/product.md, Online booking): a
-- request of its own, closed once the desk has offered the time to the waitlist or let it be.
ALTER TABLE "booking_requests" DROP CONSTRAINT "booking_requests_kind_check";--> statement-breakpoint
ALTER TABLE "booking_requests" ADD CONSTRAINT "booking_requests_kind_check"
  CHECK ("kind" IN ('unmatched', 'call_back', 'freed'));
