-- Custom SQL migration file, put your code below! --
-- Change notifications for the in-process lexical index of the embedded mode (ADR 0305): every committed insert,
-- delete, and update of a column the index holds (tier, dim, text, lifecycle flags, expiry) sends the memory's
-- [tenant_id, id] on channel care_memory_changed; TRUNCATE sends an empty payload (drop everything). NOTIFY is
-- delivered only when the transaction commits, so a rolled-back write never reaches the index.
CREATE OR REPLACE FUNCTION care_memory_notify_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('care_memory_changed', '');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('care_memory_changed', json_build_array(OLD.tenant_id, OLD.id)::text);
  ELSE
    PERFORM pg_notify('care_memory_changed', json_build_array(NEW.tenant_id, NEW.id)::text);
    IF TG_OP = 'UPDATE' AND (OLD.tenant_id, OLD.id) IS DISTINCT FROM (NEW.tenant_id, NEW.id) THEN
      PERFORM pg_notify('care_memory_changed', json_build_array(OLD.tenant_id, OLD.id)::text);
    END IF;
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS memories_notify_change ON memories;
--> statement-breakpoint
CREATE TRIGGER memories_notify_change
  AFTER INSERT OR DELETE OR UPDATE OF tenant_id, id, tier, dim, text, forgotten_at, merged_into, suppressed_at, expires_at
  ON memories FOR EACH ROW EXECUTE FUNCTION care_memory_notify_change();
--> statement-breakpoint
DROP TRIGGER IF EXISTS memories_notify_truncate ON memories;
--> statement-breakpoint
CREATE TRIGGER memories_notify_truncate AFTER TRUNCATE ON memories
  FOR EACH STATEMENT EXECUTE FUNCTION care_memory_notify_change();
