// Opening: which DATABASE_URI values are accepted, file-backed PGlite persistence, pgvector on PGlite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import {
  DatabaseConfigError,
  openDatabase,
  resolveDatabaseTarget,
  type Database,
  type OpenDatabaseOptions,
} from '../src';
import { notes } from './fixtures/notes.schema';
import { MIGRATIONS, RUNTIME_ROLE } from './support/engines';

const options: OpenDatabaseOptions = {
  appName: 'db-test',
  migrationsFolder: MIGRATIONS,
  runtimeRole: RUNTIME_ROLE,
};

describe('DATABASE_URI', () => {
  it.each(['mongodb://user:secret@localhost:27017/care', 'mongodb+srv://cluster.example.net/care'])(
    'refuses %s saying PostgreSQL is required',
    async (uri) => {
      const err = await openDatabase({ ...options, uri }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseConfigError);
      expect((err as Error).message).toMatch(/PostgreSQL is required/);
      expect((err as Error).message).not.toContain('secret');
    },
  );

  it('refuses other schemes without echoing credentials', async () => {
    const err = await openDatabase({ ...options, uri: 'mysql://user:hunter2@db/care' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DatabaseConfigError);
    expect((err as Error).message).toMatch(/mysql.*not supported/);
    expect((err as Error).message).not.toContain('hunter2');
  });

  it('fails to open, rather than hang, when the server refuses connections', async () => {
    const opening = openDatabase({ ...options, uri: 'postgres://nobody@127.0.0.1:1/none' });
    await expect(opening).rejects.toThrow(/ECONNREFUSED|connect/);
  });

  it('maps unset and blank to file-backed PGlite under .data/<appName>, or dataDir when given', () => {
    const fallback = { kind: 'pglite', dataDir: path.resolve('.data', 'platform-auth') };
    expect(resolveDatabaseTarget(undefined, undefined, 'platform-auth')).toEqual(fallback);
    expect(resolveDatabaseTarget('  ', undefined, 'platform-auth')).toEqual(fallback);
    expect(resolveDatabaseTarget(undefined, '/srv/data', 'x')).toEqual({
      kind: 'pglite',
      dataDir: '/srv/data',
    });
  });

  it('maps pglite://memory to in-memory PGlite and postgres URIs to the server', () => {
    expect(resolveDatabaseTarget('pglite://memory', '/ignored', 'x')).toEqual({
      kind: 'pglite',
      dataDir: undefined,
    });
    for (const uri of [
      'postgres://u@h/db',
      'postgresql://u@h:5433/db?sslmode=require',
      'POSTGRES://u@h/db',
    ]) {
      expect(resolveDatabaseTarget(uri, undefined, 'x')).toEqual({ kind: 'postgres', uri });
    }
  });

  it('refuses runtime role names that are not plain lower-case identifiers, before opening anything', async () => {
    const notIdentifier = fc.string({ maxLength: 70 }).filter((s) => !/^[a-z_][a-z0-9_]{0,62}$/.test(s));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(notIdentifier, fc.constantFrom('pg_monitor', 'public', 'current_user')),
        async (role) => {
          await expect(openDatabase({ ...options, uri: 'mongodb://x', runtimeRole: role })).rejects.toThrow(
            /runtimeRole/,
          );
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('file-backed PGlite with pgvector', () => {
  let root: string;
  let dataDir: string;
  let reopened: Database | undefined;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'care-db-'));
    dataDir = path.join(root, 'nested', 'parents', 'pg');
  });
  afterAll(async () => {
    await reopened?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  // Reopening reuses the folder the first open initialised, so this one instance also serves the vector test.
  async function reopen(): Promise<Database> {
    reopened ??= await openDatabase({ ...options, dataDir, extensions: ['vector'] });
    return reopened;
  }

  it('creates missing parent folders and keeps rows across close and reopen without re-migrating', async () => {
    const first = await openDatabase({ ...options, dataDir, extensions: ['vector'] });
    expect(first.kind).toBe('pglite');
    await first.withTenant('acme', (tx) =>
      tx.insert(notes).values({ tenantId: 'acme', id: '1', body: 'kept' }),
    );
    await first.close();
    await first.close();

    const second = await reopen();
    const rows = await second.withTenant('acme', (tx) => tx.select().from(notes));
    const applied = await second.db.execute<{ n: number }>(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    expect(rows).toEqual([{ tenantId: 'acme', id: '1', body: 'kept' }]);
    expect(applied.rows).toEqual([{ n: 2 }]);
  });

  it('loads pgvector when asked: a vector column orders by <-> distance', async () => {
    const database = await reopen();
    await database.withSystem(async (tx) => {
      await tx.execute(sql`create extension if not exists vector`);
      await tx.execute(sql`create table items (id text primary key, embedding vector(3))`);
      await tx.execute(
        sql`insert into items values ('far', '[9,9,9]'), ('near', '[1,1,1.5]'), ('mid', '[3,3,3]')`,
      );
    });
    const nearest = await database.db.execute<{ id: string }>(
      sql`select id from items order by embedding <-> '[1,1,1]' limit 3`,
    );
    expect(nearest.rows.map((r) => r.id)).toEqual(['near', 'mid', 'far']);
  });
});

describe('PGlite shared_buffers', () => {
  it('starts the embedded engine with the size asked for, and PostgreSQL default without one', async () => {
    const sized = await openDatabase({ ...options, uri: 'pglite://memory', pgliteSharedBuffers: '192MB' });
    const plain = await openDatabase({ ...options, uri: 'pglite://memory' });
    try {
      const show = async (d: Database) =>
        (await d.db.execute<{ shared_buffers: string }>(sql`show shared_buffers`)).rows[0].shared_buffers;
      expect(await show(sized)).toBe('192MB');
      expect(await show(plain)).toBe('128MB');
    } finally {
      await sized.close();
      await plain.close();
    }
  });

  it.each(['512', '512 MB', '0MB', '-1MB', '1TB', '512MB\nfsync = off', "512MB' ", ''])(
    'refuses %j before starting anything',
    async (value) => {
      const err = await openDatabase({
        ...options,
        uri: 'pglite://memory',
        pgliteSharedBuffers: value,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseConfigError);
    },
  );
});

describe('PGlite in memory from a data folder dump', () => {
  it('starts from the rows of the dumped database and still applies migrations', async () => {
    const source = await openDatabase({ ...options, uri: 'pglite://memory' });
    let dump: Blob;
    try {
      await source.withTenant('acme', (tx) =>
        tx.insert(notes).values({ tenantId: 'acme', id: '1', body: 'dumped' }),
      );
      const client = (source.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
      dump = await client.dumpDataDir('none');
    } finally {
      await source.close();
    }
    const loaded = await openDatabase({ ...options, uri: 'pglite://memory', pgliteLoadDataDir: dump });
    try {
      expect(await loaded.withTenant('acme', (tx) => tx.select().from(notes))).toEqual([
        { tenantId: 'acme', id: '1', body: 'dumped' },
      ]);
    } finally {
      await loaded.close();
    }
  });
});
