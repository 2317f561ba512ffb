-- Custom SQL migration file, put your code below! --
-- audit_record: writes one tenant's batch of audit events in one statement (one round trip instead of BEGIN, role
-- and tenant, insert, COMMIT). Same contract as chat_acquire_turn (migration 0004): a statement of its own,
-- switching itself to the runtime role and p_tenant, so RLS checks every row. p_events is a JSON array of
-- objects with the audit_events columns (snake_case); the tenant comes from p_tenant only.
CREATE OR REPLACE FUNCTION audit_record(p_tenant text, p_events jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY INVOKER AS $fn$
DECLARE
  v_count integer;
BEGIN
  PERFORM care_consult_enter_tenant(p_tenant, 'audit_record');
  INSERT INTO audit_events (tenant_id, id, occurred_at, actor_id, action, resource_type, resource_id, outcome, request_id, meta)
  SELECT p_tenant, e.id, e.occurred_at, e.actor_id, e.action, e.resource_type, e.resource_id, e.outcome, e.request_id,
    coalesce(e.meta, '{}'::jsonb)
  FROM jsonb_to_recordset(p_events) AS e(id uuid, occurred_at timestamptz, actor_id text, action text, resource_type text,
    resource_id text, outcome text, request_id text, meta jsonb);
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count;
END
$fn$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_record(text, jsonb) FROM PUBLIC;
