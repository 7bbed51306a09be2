-- The audit log cannot be altered: each clinic's records form a chain, each holding the SHA-256 of
-- the one before it and of its own fields, and the database refuses to update or delete a record,
-- whoever asks (the API too).

ALTER TABLE "audit_log" ADD COLUMN "chain_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- A record's own fields, as one text: what its hash covers (the time in microseconds since the epoch,
-- so the text does not depend on a session's time zone; jsonb's text is canonical).
CREATE FUNCTION audit_record_text(rec audit_log) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT concat_ws('|', (rec).clinic_id, (rec).id, (rec).chain_seq, coalesce((rec).user_id::text, ''),
    (rec).action, (rec).entity, coalesce((rec).entity_id, ''), coalesce((rec).details::text, ''),
    (extract(epoch FROM (rec).created_at) * 1000000)::bigint);
$$;--> statement-breakpoint
CREATE FUNCTION audit_chain_hash(previous text, rec audit_log) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(previous || '|' || audit_record_text(rec), 'UTF8')), 'hex');
$$;--> statement-breakpoint
-- The records so far, chained in the order they were written.
DO $$
DECLARE
  rec audit_log;
  previous text := '';
  clinic integer := NULL;
  place bigint := 0;
BEGIN
  FOR rec IN SELECT * FROM audit_log ORDER BY clinic_id, id LOOP
    IF clinic IS DISTINCT FROM rec.clinic_id THEN
      clinic := rec.clinic_id;
      previous := '';
      place := 0;
    END IF;
    place := place + 1;
    rec.chain_seq := place;
    previous := audit_chain_hash(previous, rec);
    UPDATE audit_log SET chain_seq = place, hash = previous WHERE clinic_id = rec.clinic_id AND id = rec.id;
  END LOOP;
END
$$;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_chain_unique" ON "audit_log" USING btree ("clinic_id","chain_seq")
  WHERE "chain_seq" > 0;--> statement-breakpoint
CREATE INDEX "audit_log_unsealed_idx" ON "audit_log" USING btree ("clinic_id","id") WHERE "chain_seq" = 0;--> statement-breakpoint
-- New records are written unsealed (chain_seq 0), so a write never waits on another clinic desk's
-- write for its place in the chain; sealing gives the committed ones their places in the order they
-- were written, one sealer a clinic at a time. The API seals every few seconds; verifying seals first.
CREATE FUNCTION seal_audit_chain() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  clinic integer;
  last audit_log;
  rec audit_log;
  previous text;
  place bigint;
  sealed integer := 0;
BEGIN
  FOR clinic IN SELECT DISTINCT clinic_id FROM audit_log WHERE chain_seq = 0 LOOP
    -- Another sealer at work on this clinic: it seals these too.
    CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtext('audit_log_chain'), clinic);
    SELECT * INTO last FROM audit_log WHERE clinic_id = clinic AND chain_seq > 0 ORDER BY chain_seq DESC LIMIT 1;
    previous := coalesce(last.hash, '');
    place := coalesce(last.chain_seq, 0);
    FOR rec IN SELECT * FROM audit_log WHERE clinic_id = clinic AND chain_seq = 0 ORDER BY id LOOP
      place := place + 1;
      rec.chain_seq := place;
      previous := audit_chain_hash(previous, rec);
      PERFORM set_config('dental.sealing_audit', 'on', true);
      UPDATE audit_log SET chain_seq = place, hash = previous WHERE clinic_id = clinic AND id = rec.id;
      sealed := sealed + 1;
    END LOOP;
  END LOOP;
  PERFORM set_config('dental.sealing_audit', 'off', true);
  RETURN sealed;
END
$$;--> statement-breakpoint
-- Nothing may change a record, but sealing may give an unsealed one its place, once.
CREATE FUNCTION audit_log_unchangeable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.chain_seq = 0 AND NEW.chain_seq > 0
    AND coalesce(current_setting('dental.sealing_audit', true), '') = 'on'
    AND (to_jsonb(NEW) - 'chain_seq' - 'hash') = (to_jsonb(OLD) - 'chain_seq' - 'hash') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'Audit records cannot be changed or deleted' USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_log_unchangeable BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW
  EXECUTE FUNCTION audit_log_unchangeable();--> statement-breakpoint
CREATE TRIGGER audit_log_untruncatable BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT
  EXECUTE FUNCTION audit_log_unchangeable();
--> statement-breakpoint
-- Sign-outs and records opened are recorded now; like a sign-in they change nothing a screen shows.
CREATE OR REPLACE FUNCTION audit_log_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action NOT IN ('access_denied', 'deny', 'export', 'login', 'login_failed', 'login_locked', 'logout',
    'view') THEN
    PERFORM announce_change(NEW.clinic_id, NEW.user_id, NEW.entity, NEW.entity_id, NEW.action, NEW.id);
  END IF;
  RETURN NULL;
END
$$;
