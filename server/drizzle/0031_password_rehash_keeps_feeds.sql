-- Raising a stored password hash's cost at its owner's sign-in (the same password, hashed anew) is no
-- password set anew: it ends no calendar feed (0030). The sign-in says so for its own transaction.
DROP TRIGGER calendar_feeds_end_with_account ON users;--> statement-breakpoint
CREATE TRIGGER calendar_feeds_end_with_account AFTER UPDATE OF password_hash, is_active ON users
  FOR EACH ROW
  WHEN ((NEW.password_hash IS DISTINCT FROM OLD.password_hash
      AND coalesce(current_setting('dental.password_rehash', true), '') <> 'on')
    OR (OLD.is_active AND NOT NEW.is_active))
  EXECUTE FUNCTION calendar_feeds_end_with_account();
