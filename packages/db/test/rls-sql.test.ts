// The SQL that services paste into custom drizzle migrations: shape, validation, and the fixture kept in sync.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { DatabaseConfigError, ensureRoleSql, tenantRlsSql } from '../src';
import { MIGRATIONS, RUNTIME_ROLE } from './support/engines';

const BREAKPOINT = '--> statement-breakpoint';

describe('tenantRlsSql', () => {
  const statements = tenantRlsSql('care_notes', { runtimeRole: 'care_auth_app' })
    .split(BREAKPOINT)
    .map((s) => s.trim());

  it('enables and forces row-level security', () => {
    expect(statements).toContain('ALTER TABLE care_notes ENABLE ROW LEVEL SECURITY;');
    expect(statements).toContain('ALTER TABLE care_notes FORCE ROW LEVEL SECURITY;');
  });

  it('filters reads (USING) and writes (WITH CHECK) on tenant_id = app.tenant_id, blank meaning none', () => {
    const policy = statements.find((s) => s.startsWith('CREATE POLICY tenant_isolation'));
    const condition = "(tenant_id = nullif(current_setting('app.tenant_id', true), ''))";
    expect(policy).toContain(`USING ${condition}`);
    expect(policy).toContain(`WITH CHECK ${condition}`);
  });

  it('grants only DML to the runtime role', () => {
    expect(statements).toContain('GRANT SELECT, INSERT, UPDATE, DELETE ON care_notes TO care_auth_app;');
    expect(statements.filter((s) => s.startsWith('GRANT'))).toHaveLength(1);
  });

  it('puts one statement between breakpoints so PGlite and node-postgres both accept each part', () => {
    for (const statement of statements) expect(statement.indexOf(';')).toBe(statement.length - 1);
  });

  it('uses a custom tenant column and schema-qualified tables', () => {
    const out = tenantRlsSql('memory.items', { column: 'partition_id', runtimeRole: 'care_memory_app' });
    expect(out).toContain('ALTER TABLE memory.items FORCE ROW LEVEL SECURITY;');
    expect(out).toContain("USING (partition_id = nullif(current_setting('app.tenant_id', true), ''))");
  });

  it('refuses table, column and role names that are not plain lower-case identifiers', () => {
    const bad = fc.string({ maxLength: 40 }).filter((s) => !/^[a-z_][a-z0-9_]*$/.test(s) || s.length > 63);
    fc.assert(
      fc.property(bad, (name) => {
        expect(() => tenantRlsSql(name, { runtimeRole: 'care_x_app' })).toThrow(DatabaseConfigError);
        expect(() => tenantRlsSql('t', { column: name, runtimeRole: 'care_x_app' })).toThrow(
          DatabaseConfigError,
        );
        expect(() => tenantRlsSql('t', { runtimeRole: name })).toThrow(DatabaseConfigError);
        expect(() => ensureRoleSql(name)).toThrow(DatabaseConfigError);
      }),
      { numRuns: 200 },
    );
  });
});

describe('ensureRoleSql', () => {
  const out = ensureRoleSql('care_auth_app');

  it('creates a NOLOGIN role with no superuser, BYPASSRLS, CREATEDB or CREATEROLE, only when missing', () => {
    expect(out).toMatch(
      /IF NOT EXISTS \(SELECT 1 FROM pg_catalog\.pg_roles WHERE rolname = 'care_auth_app'\)/,
    );
    expect(out).toContain(
      'CREATE ROLE care_auth_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;',
    );
  });

  it('tolerates a concurrent creation and grants schema usage, as one statement', () => {
    expect(out).toContain('EXCEPTION WHEN duplicate_object OR unique_violation');
    expect(out).toContain('GRANT USAGE ON SCHEMA public TO care_auth_app;');
    expect(out).not.toContain(BREAKPOINT);
  });

  it('refuses reserved role names', () => {
    for (const role of ['pg_read_all_data', 'public', 'current_user', 'none']) {
      expect(() => ensureRoleSql(role)).toThrow(DatabaseConfigError);
    }
  });
});

describe('fixture migrations', () => {
  it('hold exactly what ensureRoleSql and tenantRlsSql generate for notes', () => {
    const custom = fs.readFileSync(path.join(MIGRATIONS, '0001_notes_rls.sql'), 'utf8');
    expect(custom).toContain(
      `${ensureRoleSql(RUNTIME_ROLE)}\n${BREAKPOINT}\n${tenantRlsSql('notes', { runtimeRole: RUNTIME_ROLE })}`,
    );
  });
});
