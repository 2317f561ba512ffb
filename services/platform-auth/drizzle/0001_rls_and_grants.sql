-- Row-level security for every tenant table (generated with @care/db ensureRoleSql + tenantRlsSql, role care_auth_app), grants on the global tables, value checks.
--> statement-breakpoint
DO $care_role$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'care_auth_app') THEN
    BEGIN
      CREATE ROLE care_auth_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL; -- created meanwhile by another database of the same cluster
    END;
  END IF;
  IF NOT pg_catalog.pg_has_role(current_user, 'care_auth_app', 'MEMBER') THEN
    EXECUTE 'GRANT care_auth_app TO ' || quote_ident(current_user);
  END IF;
  GRANT USAGE ON SCHEMA public TO care_auth_app;
END
$care_role$;
--> statement-breakpoint
ALTER TABLE users ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE users FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON users;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON users AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON users;
--> statement-breakpoint
CREATE POLICY system_access ON users AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON users TO care_auth_app;
--> statement-breakpoint
ALTER TABLE login_directory ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE login_directory FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON login_directory;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON login_directory AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON login_directory;
--> statement-breakpoint
CREATE POLICY system_access ON login_directory AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON login_directory TO care_auth_app;
--> statement-breakpoint
ALTER TABLE refresh_tokens ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE refresh_tokens FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON refresh_tokens;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON refresh_tokens AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON refresh_tokens;
--> statement-breakpoint
CREATE POLICY system_access ON refresh_tokens AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON refresh_tokens TO care_auth_app;
--> statement-breakpoint
ALTER TABLE tenant_configs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE tenant_configs FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON tenant_configs;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON tenant_configs AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON tenant_configs;
--> statement-breakpoint
CREATE POLICY system_access ON tenant_configs AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON tenant_configs TO care_auth_app;
--> statement-breakpoint
ALTER TABLE workflows ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE workflows FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON workflows;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON workflows AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON workflows;
--> statement-breakpoint
CREATE POLICY system_access ON workflows AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON workflows TO care_auth_app;
--> statement-breakpoint
ALTER TABLE kb_documents ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE kb_documents FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON kb_documents;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON kb_documents AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON kb_documents;
--> statement-breakpoint
CREATE POLICY system_access ON kb_documents AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON kb_documents TO care_auth_app;
--> statement-breakpoint
-- Global tables: the runtime role reads the scope map and tenant names, and may only append to the audit trail.
GRANT SELECT ON scope_mappings TO care_auth_app;
--> statement-breakpoint
GRANT SELECT ON tenants TO care_auth_app;
--> statement-breakpoint
GRANT INSERT ON auth_events TO care_auth_app;
--> statement-breakpoint
ALTER TABLE users ADD CONSTRAINT users_roles_check CHECK (roles <@ ARRAY['PLATFORM_ADMIN','TENANT_ADMIN','USER','VIEWER']::text[] AND cardinality(roles) > 0);
--> statement-breakpoint
ALTER TABLE scope_mappings ADD CONSTRAINT scope_mappings_method_check CHECK (method IN ('ALL','GET','HEAD','POST','PUT','PATCH','DELETE','OPTIONS'));
--> statement-breakpoint
ALTER TABLE kb_documents ADD CONSTRAINT kb_documents_index_status_check CHECK (index_status IN ('NOT_INDEXED','INDEXED','FAILED'));
--> statement-breakpoint
ALTER TABLE workflows ADD CONSTRAINT workflows_version_check CHECK (version >= 1);
