-- Custom SQL migration file, put your code below! --
-- Row-level security for audit_events and attachments: generated with @care/db ensureRoleSql + tenantRlsSql (runtime role care_consult_app).
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
ALTER TABLE audit_events ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE audit_events FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON audit_events;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON audit_events AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON audit_events;
--> statement-breakpoint
CREATE POLICY system_access ON audit_events AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON audit_events TO care_consult_app;
--> statement-breakpoint
ALTER TABLE attachments ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE attachments FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON attachments;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON attachments AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON attachments;
--> statement-breakpoint
CREATE POLICY system_access ON attachments AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON attachments TO care_consult_app;
--> statement-breakpoint
-- The audit trail is append-only for the runtime role: requests can add events, never edit or remove them.
REVOKE UPDATE, DELETE ON audit_events FROM care_consult_app;
