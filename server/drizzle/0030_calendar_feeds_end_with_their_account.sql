-- A calendar feed's private address is a key to a dentist's visits: it stops working when the account
-- behind it changes hands. A password set anew (by its owner or an administrator) or an account
-- deactivated ends the feeds that account made and the feed of the dentist it signs in as; turning a
-- feed off is its own delete (DELETE /api/calendar/feeds/:id). See docs/security.md "Smaller rules".
CREATE FUNCTION calendar_feeds_end_with_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM calendar_feeds f
  WHERE f.clinic_id = NEW.clinic_id
    AND (f.created_by = NEW.id OR (NEW.dentist_id IS NOT NULL AND f.dentist_id = NEW.dentist_id));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER calendar_feeds_end_with_account AFTER UPDATE OF password_hash, is_active ON users
  FOR EACH ROW
  WHEN (NEW.password_hash IS DISTINCT FROM OLD.password_hash OR (OLD.is_active AND NOT NEW.is_active))
  EXECUTE FUNCTION calendar_feeds_end_with_account();
