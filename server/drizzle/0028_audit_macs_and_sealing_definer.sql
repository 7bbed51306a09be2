-- The audit chain proves itself against its keeper too (docs/security.md "The audit trail").
-- Each sealed record gets an HMAC under a key kept outside the database (AUDIT_KEY), written by the
-- API in the same transaction that seals it: the database's owner can recompute the unkeyed chain,
-- not the HMACs. Like the records, an HMAC is never changed or deleted.

CREATE TABLE "audit_log_macs" (
  "clinic_id" integer NOT NULL,
  "chain_seq" bigint NOT NULL,
  "mac" text NOT NULL,
  CONSTRAINT "audit_log_macs_pkey" PRIMARY KEY ("clinic_id", "chain_seq"),
  CONSTRAINT "audit_log_macs_mac_check" CHECK ("mac" ~ '^[0-9a-f]{64}$')
);--> statement-breakpoint
CREATE FUNCTION audit_log_macs_unchangeable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Audit record MACs cannot be changed or deleted' USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_log_macs_unchangeable BEFORE UPDATE OR DELETE ON audit_log_macs FOR EACH ROW
  EXECUTE FUNCTION audit_log_macs_unchangeable();--> statement-breakpoint
CREATE TRIGGER audit_log_macs_untruncatable BEFORE TRUNCATE ON audit_log_macs FOR EACH STATEMENT
  EXECUTE FUNCTION audit_log_macs_unchangeable();--> statement-breakpoint
-- Sealing answers what it sealed, so the API can give each record its HMAC in the same transaction.
-- It runs as the tables' owner (SECURITY DEFINER): an API that connects as a role of its own
-- (DATABASE_OWNER_URL) may insert and read audit records, never update them, and seals them only here.
CREATE FUNCTION seal_audit_records() RETURNS TABLE (clinic_id integer, chain_seq bigint, hash text)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  clinic integer;
  last audit_log;
  rec audit_log;
  previous text;
  place bigint;
BEGIN
  FOR clinic IN SELECT DISTINCT a.clinic_id FROM audit_log a WHERE a.chain_seq = 0 LOOP
    -- Another sealer at work on this clinic: it seals these too.
    CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtext('audit_log_chain'), clinic);
    SELECT * INTO last FROM audit_log a WHERE a.clinic_id = clinic AND a.chain_seq > 0
      ORDER BY a.chain_seq DESC LIMIT 1;
    previous := coalesce(last.hash, '');
    place := coalesce(last.chain_seq, 0);
    FOR rec IN SELECT * FROM audit_log a WHERE a.clinic_id = clinic AND a.chain_seq = 0 ORDER BY a.id LOOP
      place := place + 1;
      rec.chain_seq := place;
      previous := audit_chain_hash(previous, rec);
      PERFORM set_config('dental.sealing_audit', 'on', true);
      UPDATE audit_log a SET chain_seq = place, hash = previous WHERE a.clinic_id = clinic AND a.id = rec.id;
      clinic_id := clinic;
      chain_seq := place;
      hash := previous;
      RETURN NEXT;
    END LOOP;
  END LOOP;
  PERFORM set_config('dental.sealing_audit', 'off', true);
END
$$;--> statement-breakpoint
-- The sealing of 0017 goes: a record sealed without its HMAC would read as forged.
DROP FUNCTION seal_audit_chain();
