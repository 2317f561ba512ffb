-- Custom SQL migration file, put your code below! --
-- Row-level security for chat_threads and chat_checkpoints: generated with @care/db ensureRoleSql + tenantRlsSql (runtime role care_consult_app).
DO $care_role$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'care_consult_app') THEN
    BEGIN
      CREATE ROLE care_consult_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL; -- created meanwhile by another database of the same cluster
    END;
  END IF;
  IF NOT pg_catalog.pg_has_role(current_user, 'care_consult_app', 'MEMBER') THEN
    EXECUTE 'GRANT care_consult_app TO ' || quote_ident(current_user);
  END IF;
  GRANT USAGE ON SCHEMA public TO care_consult_app;
END
$care_role$;
--> statement-breakpoint
ALTER TABLE chat_threads ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE chat_threads FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON chat_threads;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON chat_threads AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON chat_threads;
--> statement-breakpoint
CREATE POLICY system_access ON chat_threads AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON chat_threads TO care_consult_app;
--> statement-breakpoint
ALTER TABLE chat_checkpoints ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE chat_checkpoints FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON chat_checkpoints;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON chat_checkpoints AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON chat_checkpoints;
--> statement-breakpoint
CREATE POLICY system_access ON chat_checkpoints AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON chat_checkpoints TO care_consult_app;
