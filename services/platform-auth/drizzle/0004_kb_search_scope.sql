-- Knowledge-base search (ADR 0107): an explicit row for GET /api/v1/kb/search. It needs only kb:read, like reading
-- documents; the row keeps the mapping visible and keeps working if the area-wide GET row is ever narrowed.
INSERT INTO scope_mappings (path, method, required_scope) VALUES
  ('/api/v1/kb/search', 'GET', 'kb:read')
ON CONFLICT (path, method) DO NOTHING;
