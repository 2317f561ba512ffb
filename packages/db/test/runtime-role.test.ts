// assertSafeRuntimeRole refuses roles that could read past RLS; openDatabase refuses to start with one; a
// non-superuser owner (the production shape on a server) still gets tenant and system transactions.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import {
  assertSafeRuntimeRole,
  DatabaseConfigError,
  openDatabase,
  UnsafeRuntimeRoleError,
  type Database,
} from '../src';
import { createServerTestDatabase, serverTestUri } from '../src/testing';
import { notes } from './fixtures/notes.schema';
import { describeEachEngine, MIGRATIONS, RUNTIME_ROLE, unique } from './support/engines';

function roleName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

describeEachEngine('assertSafeRuntimeRole', (engine) => {
  let database: Database;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ database, cleanup } = await engine.open());
  });
  afterAll(async () => cleanup?.());

  /** Runs `fn` with throwaway roles made by `setup` (roles are cluster-wide on a server, so always dropped). */
  async function withRoles(roles: string[], setup: string[], fn: () => Promise<void>): Promise<void> {
    try {
      for (const statement of setup) await database.db.execute(sql.raw(statement));
      await fn();
    } finally {
      for (const role of [...roles].reverse()) {
        await database.db.execute(sql.raw(`drop owned by ${role}`)).catch(() => undefined);
        await database.db.execute(sql.raw(`drop role if exists ${role}`));
      }
    }
  }

  async function reasonsFor(role: string): Promise<string[]> {
    const err = await assertSafeRuntimeRole(database.db, role).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeRuntimeRoleError);
    return (err as UnsafeRuntimeRoleError).reasons;
  }

  it('accepts the NOLOGIN runtime role the migrations grant to', async () => {
    await expect(assertSafeRuntimeRole(database.db, RUNTIME_ROLE)).resolves.toBeUndefined();
  });

  it('fails for a superuser role', async () => {
    const role = roleName('care_db_su');
    await withRoles([role], [`create role ${role} nologin superuser`], async () => {
      expect(await reasonsFor(role)).toEqual([expect.stringMatching(/superuser/)]);
    });
  });

  it('fails for a BYPASSRLS role', async () => {
    const role = roleName('care_db_bypass');
    await withRoles([role], [`create role ${role} nologin bypassrls`], async () => {
      expect(await reasonsFor(role)).toEqual(['has BYPASSRLS']);
    });
  });

  it('fails for a member of a BYPASSRLS role', async () => {
    const [outer, inner] = [roleName('care_db_bypass'), roleName('care_db_member')];
    const setup = [
      `create role ${outer} nologin bypassrls`,
      `create role ${inner} nologin`,
      `grant ${outer} to ${inner}`,
    ];
    await withRoles([outer, inner], setup, async () => {
      expect(await reasonsFor(inner)).toEqual([expect.stringContaining(outer)]);
    });
  });

  it('fails for a role that owns a table in the schema, naming the table', async () => {
    const [role, table] = [roleName('care_db_owner'), roleName('owned')];
    const setup = [
      `create role ${role} nologin`,
      `create table ${table} (id int)`,
      `alter table ${table} owner to ${role}`,
    ];
    await withRoles([role], setup, async () => {
      expect(await reasonsFor(role)).toEqual([expect.stringContaining(`public.${table}`)]);
    });
  });

  it('fails with a config error for a role that does not exist', async () => {
    await expect(assertSafeRuntimeRole(database.db, roleName('care_db_missing'))).rejects.toBeInstanceOf(
      DatabaseConfigError,
    );
  });
});

const baseUri = serverTestUri();
const describeServer = baseUri ? describe : describe.skip;

describeServer('runtime role on a PostgreSQL server', () => {
  async function admin(statement: string): Promise<void> {
    const client = new Client({ connectionString: baseUri });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  it('refuses to open when the runtime role has BYPASSRLS', async () => {
    const role = roleName('care_db_bypass');
    const server = await createServerTestDatabase(baseUri!);
    await admin(`create role ${role} nologin bypassrls`);
    try {
      const opening = openDatabase({
        uri: server.uri,
        appName: 'db-test',
        migrationsFolder: MIGRATIONS,
        runtimeRole: role,
      });
      await expect(opening).rejects.toBeInstanceOf(UnsafeRuntimeRoleError);
    } finally {
      await server.drop();
      await admin(`drop role if exists ${role}`);
    }
  });

  it('gives a non-superuser owner tenant-scoped and cross-tenant system transactions', async () => {
    const owner = roleName('care_db_owner');
    await admin(`create role ${owner} login createrole`);
    const server = await createServerTestDatabase(baseUri!, { owner });
    const uri = new URL(server.uri);
    uri.username = owner;
    let database: Database | undefined;
    try {
      database = await openDatabase({
        uri: uri.toString(),
        appName: 'db-test',
        migrationsFolder: MIGRATIONS,
        runtimeRole: RUNTIME_ROLE,
      });
      const [a, b] = [unique('a'), unique('b')];
      for (const tenant of [a, b]) {
        await database.withTenant(tenant, (tx) =>
          tx.insert(notes).values({ tenantId: tenant, id: '1', body: tenant }),
        );
      }
      const seenByB = await database.withTenant(b, (tx) => tx.select().from(notes));
      const seenBySystem = await database.withSystem((tx) => tx.select().from(notes).orderBy(notes.tenantId));
      const self = await database.db.execute<{ su: boolean }>(
        sql`select rolsuper as su from pg_roles where rolname = current_user`,
      );
      expect(self.rows).toEqual([{ su: false }]);
      expect(seenByB.map((n) => n.tenantId)).toEqual([b]);
      expect(seenBySystem.map((n) => n.tenantId)).toEqual([a, b]);
    } finally {
      await database?.close();
      await server.drop();
      await admin(`drop role if exists ${owner}`);
    }
  });
});
