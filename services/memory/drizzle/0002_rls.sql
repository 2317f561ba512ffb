-- Custom SQL migration file, put your code below! --
-- Row-level security for every tenant table (generated with @care/db ensureRoleSql + tenantRlsSql, role care_memory_app), and value checks.
DO $care_role$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'care_memory_app') THEN
    BEGIN
      CREATE ROLE care_memory_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL; -- created meanwhile by another database of the same cluster
    END;
  END IF;
  IF NOT pg_catalog.pg_has_role(current_user, 'care_memory_app', 'MEMBER') THEN
    EXECUTE 'GRANT care_memory_app TO ' || quote_ident(current_user);
  END IF;
  GRANT USAGE ON SCHEMA public TO care_memory_app;
END
$care_role$;
--> statement-breakpoint
ALTER TABLE partitions ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE partitions FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON partitions;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON partitions AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON partitions;
--> statement-breakpoint
CREATE POLICY system_access ON partitions AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON partitions TO care_memory_app;
--> statement-breakpoint
ALTER TABLE memories ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE memories FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON memories;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON memories AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON memories;
--> statement-breakpoint
CREATE POLICY system_access ON memories AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON memories TO care_memory_app;
--> statement-breakpoint
ALTER TABLE memory_access ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE memory_access FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON memory_access;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON memory_access AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON memory_access;
--> statement-breakpoint
CREATE POLICY system_access ON memory_access AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON memory_access TO care_memory_app;
--> statement-breakpoint
ALTER TABLE memory_links ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE memory_links FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON memory_links;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON memory_links AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON memory_links;
--> statement-breakpoint
CREATE POLICY system_access ON memory_links AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON memory_links TO care_memory_app;
--> statement-breakpoint
ALTER TABLE reminders ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE reminders FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON reminders;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON reminders AS PERMISSIVE FOR ALL TO PUBLIC
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), ''))
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), ''));
--> statement-breakpoint
DROP POLICY IF EXISTS system_access ON reminders;
--> statement-breakpoint
CREATE POLICY system_access ON reminders AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON reminders TO care_memory_app;
--> statement-breakpoint
ALTER TABLE memories ADD CONSTRAINT memories_tier_check CHECK (tier IN ('working', 'episodic', 'semantic', 'documents'));
--> statement-breakpoint
ALTER TABLE memories ADD CONSTRAINT memories_strength_check CHECK (strength >= 0 AND strength <= 1);
--> statement-breakpoint
ALTER TABLE reminders ADD CONSTRAINT reminders_state_check CHECK (state IN ('PENDING', 'FIRED'));
