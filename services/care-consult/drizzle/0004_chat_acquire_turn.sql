-- Custom SQL migration file, put your code below! --
-- care_consult_enter_tenant: the prologue of the single-statement functions below and in migrations 0005-0006.
-- Refuses a blank tenant, then switches the rest of the calling transaction (the caller's own statement) to the
-- runtime role care_consult_app and app.tenant_id = p_tenant, both transaction-local, as withTenant does.
CREATE OR REPLACE FUNCTION care_consult_enter_tenant(p_tenant text, p_caller text) RETURNS void
LANGUAGE plpgsql SECURITY INVOKER AS $fn$
BEGIN
  IF p_tenant IS NULL OR btrim(p_tenant) = '' THEN
    RAISE EXCEPTION '% needs a tenant id', p_caller USING ERRCODE = '22023';
  END IF;
  PERFORM set_config('role', 'care_consult_app', true), set_config('app.tenant_id', p_tenant, true);
END
$fn$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION care_consult_enter_tenant(text, text) FROM PUBLIC;
--> statement-breakpoint
-- chat_acquire_turn: takes a thread's turn lease in one statement, so a turn starts with one round trip
-- instead of four (BEGIN, role and tenant, upsert, COMMIT). Called as a statement of its own (autocommit),
-- never inside a transaction: it switches the rest of the calling transaction to the runtime role
-- care_consult_app and app.tenant_id = p_tenant (both transaction-local), so RLS applies to every row it
-- touches, exactly as in a withTenant transaction. SECURITY INVOKER (the default): SET ROLE is refused in
-- SECURITY DEFINER functions, and the caller (the owner) is the only role that can connect.
-- Outcome: 'ok' with the thread's newest checkpoint (new thread, or owned and not busy, or lease expired),
-- 'busy' (owned, an unexpired turn holds it), 'not_owner' (another user's thread in this tenant).
CREATE OR REPLACE FUNCTION chat_acquire_turn(
  p_tenant text,
  p_thread text,
  p_owner text,
  p_turn uuid,
  p_now timestamptz,
  p_until timestamptz
) RETURNS TABLE (outcome text, last_checkpoint_id uuid)
LANGUAGE plpgsql SECURITY INVOKER AS $fn$
DECLARE
  v_last uuid;
  v_owner text;
BEGIN
  PERFORM care_consult_enter_tenant(p_tenant, 'chat_acquire_turn');
  INSERT INTO chat_threads AS t (tenant_id, thread_id, owner_id, busy_turn, busy_until, created_at, updated_at)
  VALUES (p_tenant, p_thread, p_owner, p_turn, p_until, p_now, p_now)
  ON CONFLICT (tenant_id, thread_id) DO UPDATE SET busy_turn = excluded.busy_turn, busy_until = excluded.busy_until
  WHERE t.owner_id = p_owner AND (t.busy_turn IS NULL OR t.busy_until < p_now)
  RETURNING t.last_checkpoint_id INTO v_last;
  IF FOUND THEN
    RETURN QUERY SELECT 'ok'::text, v_last;
    RETURN;
  END IF;
  SELECT t.owner_id INTO v_owner FROM chat_threads t WHERE t.tenant_id = p_tenant AND t.thread_id = p_thread;
  RETURN QUERY SELECT CASE WHEN v_owner = p_owner THEN 'busy' ELSE 'not_owner' END, NULL::uuid;
END
$fn$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION chat_acquire_turn(text, text, text, uuid, timestamptz, timestamptz) FROM PUBLIC;
