-- The path-scope map as data. Rows 1-6: the spec's "Path groups" table; rows 7-10: DESIGN section 4 additions
-- (GET <area>/** -> <area>:read, GET /api/v1/config/** -> config:read). Most specific path wins, then a
-- method-specific row over ALL; no matching row means 403.
INSERT INTO scope_mappings (path, method, required_scope) VALUES
  ('/api/v1/chat/**', 'ALL', 'chat:access'),
  ('/api/v1/workflow/**', 'ALL', 'workflow:access'),
  ('/api/v1/kb/**', 'ALL', 'kb:access'),
  ('/api/v1/config/**', 'PATCH', 'admin:config'),
  ('/api/v1/users/**', 'ALL', 'admin:users'),
  ('/api/v1/tenants/**', 'ALL', 'platform:admin'),
  ('/api/v1/chat/**', 'GET', 'chat:read'),
  ('/api/v1/workflow/**', 'GET', 'workflow:read'),
  ('/api/v1/kb/**', 'GET', 'kb:read'),
  ('/api/v1/config/**', 'GET', 'config:read')
ON CONFLICT (path, method) DO NOTHING;
