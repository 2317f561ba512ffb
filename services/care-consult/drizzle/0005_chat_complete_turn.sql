-- Custom SQL migration file, put your code below! --
-- chat_complete_turn: records a turn's checkpoint and frees the thread in one statement (one round trip instead
-- of BEGIN, role and tenant, update, insert, COMMIT). Same contract as chat_acquire_turn (migration 0004): a
-- statement of its own, switching itself to the runtime role and p_tenant so RLS applies. The lease is freed
-- only if this turn still holds it (a turn whose lease expired and was taken over must not free the new
-- holder). Returns the checkpoint's turn number (seq).
CREATE OR REPLACE FUNCTION chat_complete_turn(
  p_tenant text,
  p_thread text,
  p_turn uuid,
  p_checkpoint uuid,
  p_parent uuid,
  p_owner text,
  p_agent text,
  p_status text,
  p_provider text,
  p_model text,
  p_messages jsonb,
  p_tool_calls jsonb,
  p_suggestions jsonb,
  p_refusal jsonb,
  p_error jsonb,
  p_started timestamptz,
  p_now timestamptz
) RETURNS integer
LANGUAGE plpgsql SECURITY INVOKER AS $fn$
DECLARE
  v_seq integer;
BEGIN
  PERFORM care_consult_enter_tenant(p_tenant, 'chat_complete_turn');
  UPDATE chat_threads AS t
  SET turns = t.turns + 1,
      last_checkpoint_id = p_checkpoint,
      agent_id = coalesce(p_agent, t.agent_id),
      updated_at = p_now,
      busy_turn = CASE WHEN t.busy_turn = p_turn THEN NULL ELSE t.busy_turn END,
      busy_until = CASE WHEN t.busy_turn = p_turn THEN NULL ELSE t.busy_until END
  WHERE t.tenant_id = p_tenant AND t.thread_id = p_thread
  RETURNING t.turns INTO v_seq;
  v_seq := coalesce(v_seq, 1);
  INSERT INTO chat_checkpoints (tenant_id, thread_id, checkpoint_id, parent_id, seq, owner_id, agent_id, status, provider,
    model, messages, tool_calls, suggestions, refusal, error, started_at, completed_at)
  VALUES (p_tenant, p_thread, p_checkpoint, p_parent, v_seq, p_owner, p_agent, p_status, p_provider,
    p_model, p_messages, p_tool_calls, p_suggestions, p_refusal, p_error, p_started, p_now);
  RETURN v_seq;
END
$fn$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION chat_complete_turn(text, text, uuid, uuid, uuid, text, text, text, text, text, jsonb, jsonb, jsonb, jsonb, jsonb, timestamptz, timestamptz) FROM PUBLIC;
