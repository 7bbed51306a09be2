-- A session that ends, however it ends (signed out, idle, a reused token, ended by its owner or an
-- administrator, a password or policy change), is announced on the clinic's channel, so every API
-- process reads its sessions again at once: an access token of an ended session is refused on its
-- next request everywhere, even in a clinic where nothing else is written. The announcement names
-- no resource a screen shows. See docs/security.md "Sessions".

CREATE FUNCTION user_session_ended_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM announce_change(NEW.clinic_id, NEW.user_id, 'session', NEW.id, 'ended');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER user_session_ended_announce AFTER UPDATE OF ended_at ON user_sessions FOR EACH ROW
  WHEN (OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL)
  EXECUTE FUNCTION user_session_ended_announce();
