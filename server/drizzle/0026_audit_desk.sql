-- The desk a change was made at: the browser tab that sent the write, as it names itself (X-Desk).
-- Live screens are told every change but their own desk's, though another desk may be signed in to
-- the same account. A hint for live screens, not evidence: outside the record's hash (0017).

ALTER TABLE "audit_log" ADD COLUMN "desk" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_desk_check" CHECK ("desk" ~ '^[A-Za-z0-9-]{8,64}$');--> statement-breakpoint
DROP FUNCTION announce_change(integer, integer, text, text, text, bigint);--> statement-breakpoint
CREATE FUNCTION announce_change(clinic integer, actor integer, resource text, row_id text, action text,
  event_id bigint DEFAULT NULL, desk text DEFAULT NULL) RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('clinic_events', json_build_object(
    'e', coalesce(event_id, nextval(pg_get_serial_sequence('audit_log', 'id'))),
    'c', clinic, 'u', actor, 'r', resource, 'i', row_id, 'a', action, 'd', desk)::text);
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_log_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action NOT IN ('access_denied', 'deny', 'export', 'login', 'login_failed', 'login_locked', 'logout',
    'view', 'mfa_enabled', 'mfa_disabled', 'recovery_codes_renewed') THEN
    PERFORM announce_change(NEW.clinic_id, NEW.user_id, NEW.entity, NEW.entity_id, NEW.action, NEW.id,
      NEW.desk);
  END IF;
  RETURN NULL;
END
$$;
