-- Live desk: every row staff edit carries a version, and every change to a clinic's data is
-- announced on the channel clinic_events when (and only when) its transaction commits.

-- A row's version moves on when anything staff can see of it changes; the columns named as the
-- trigger's arguments (bookkeeping: times, counters, derived columns) do not count.
CREATE FUNCTION bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (to_jsonb(NEW) - TG_ARGV) IS DISTINCT FROM (to_jsonb(OLD) - TG_ARGV) THEN
    NEW.version := OLD.version + 1;
  ELSE
    NEW.version := OLD.version;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "dentists" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "availability" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "activity_seen_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE TRIGGER appointments_version BEFORE UPDATE ON appointments FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at', 'span', 'end_time', 'sequence');--> statement-breakpoint
CREATE TRIGGER patients_version BEFORE UPDATE ON patients FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at');--> statement-breakpoint
CREATE TRIGGER dentists_version BEFORE UPDATE ON dentists FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at');--> statement-breakpoint
CREATE TRIGGER availability_version BEFORE UPDATE ON availability FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at');--> statement-breakpoint
-- A sign-in, a password or what the bell has seen is not an edit of the account another desk holds.
CREATE TRIGGER users_version BEFORE UPDATE ON users FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at', 'last_login', 'failed_login_count',
    'locked_until', 'password_hash', 'sessions_since', 'activity_seen_id');--> statement-breakpoint
CREATE TRIGGER clinic_settings_version BEFORE UPDATE ON clinic_settings FOR EACH ROW
  EXECUTE FUNCTION bump_version('version', 'updated_at');--> statement-breakpoint

-- One announcement: {"e": event id, "c": clinic, "u": user or null, "r": resource, "i": row id or
-- null, "a": action}. pg_notify holds it until the transaction commits and drops it on a rollback,
-- so a refused or rolled-back write announces nothing. The event ids share the audit log's
-- sequence: a change that is audited is announced under its audit record's id.
CREATE FUNCTION announce_change(clinic integer, actor integer, resource text, row_id text, action text,
  event_id bigint DEFAULT NULL) RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('clinic_events', json_build_object(
    'e', coalesce(event_id, nextval(pg_get_serial_sequence('audit_log', 'id'))),
    'c', clinic, 'u', actor, 'r', resource, 'i', row_id, 'a', action)::text);
$$;--> statement-breakpoint
-- Every write to clinic data records an audit row in its own transaction: that record is what is
-- announced. Reads and refusals recorded there (an export, a sign-in, a denied call) are not changes.
CREATE FUNCTION audit_log_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action NOT IN ('access_denied', 'deny', 'export', 'login', 'login_failed', 'login_locked') THEN
    PERFORM announce_change(NEW.clinic_id, NEW.user_id, NEW.entity, NEW.entity_id, NEW.action, NEW.id);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_log_announce AFTER INSERT ON audit_log FOR EACH ROW
  EXECUTE FUNCTION audit_log_announce();
--> statement-breakpoint
-- Reminders and alerts change state without an audit record (the sender delivers them): each
-- statement that adds or changes a clinic's messages announces the outbox once for that clinic.
CREATE FUNCTION outbox_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM announce_change(clinic_id, NULL, 'outbox', NULL, 'update')
  FROM (SELECT DISTINCT clinic_id FROM changed) AS clinics;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER outbox_announce_insert AFTER INSERT ON outbox REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_announce();--> statement-breakpoint
CREATE TRIGGER outbox_announce_update AFTER UPDATE ON outbox REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_announce();
