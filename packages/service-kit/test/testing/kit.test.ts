// The shared test kit of @care/service-kit/testing: engines (PGlite always, the server with TEST_DATABASE_URI),
// the movable clock, HS256 test tokens the builtin verifier accepts, and the aUser() caller builder.
import path from 'node:path';
import { openDatabase, type Database } from '@care/db';
import {
  aUser,
  describeEachEngine,
  pgliteEngine,
  signTestToken,
  TEST_JWT_SECRET,
  TestClock,
  testEngines,
} from '../../src/testing';
import { createAccessTokenVerifier, InvalidTokenError } from '../../src';

const openAt = (uri: string): Promise<Database> =>
  openDatabase({
    uri,
    appName: 'kit-test',
    // @care/db's fixture migrations (one tenant table) stand in for a service's.
    migrationsFolder: path.join(__dirname, '..', '..', '..', 'db', 'test', 'fixtures', 'drizzle'),
    runtimeRole: 'care_db_test_app',
  });

describe('testEngines', () => {
  it('always holds PGlite, and the server exactly when TEST_DATABASE_URI is set', () => {
    const names = testEngines().map((e) => e.name);
    expect(names[0]).toBe('PGlite');
    expect(names.includes('PostgreSQL server')).toBe(Boolean(process.env.TEST_DATABASE_URI?.trim()));
  });
});

describeEachEngine('engine.open', (engine) => {
  it('opens a fresh database with the service opener and closes it', async () => {
    const { database, close } = await engine.open(openAt);
    const rows = await database.withSystem((tx) => tx.execute<{ one: number }>('select 1 as one' as never));
    expect(rows.rows[0]).toEqual({ one: 1 });
    await database.withSystem((tx) => tx.execute('create table kit_probe (id int)' as never));
    await close();
    const again = await engine.open(openAt);
    // a new database: the table of the first one is not there
    const seen = await again.database.withSystem((tx) =>
      tx.execute<{ n: number }>(
        "select count(*)::int as n from pg_tables where tablename = 'kit_probe'" as never,
      ),
    );
    expect(seen.rows[0]).toEqual({ n: 0 });
    await again.close();
  });

  it('drops what it created when the opener fails', async () => {
    await expect(engine.open(async () => Promise.reject(new Error('migration failed')))).rejects.toThrow(
      'migration failed',
    );
  });
});

describe('pgliteEngine', () => {
  it('hands out in-memory databases', async () => {
    expect((await pgliteEngine.createDatabase()).uri).toBe('pglite://memory');
  });
});

describe('TestClock', () => {
  it('starts where told, moves by seconds, and reads as Date or milliseconds', () => {
    const clock = new TestClock(new Date('2030-01-01T00:00:00Z'));
    const now = clock.now;
    expect(now().toISOString()).toBe('2030-01-01T00:00:00.000Z');
    clock.advance(90);
    expect(now().toISOString()).toBe('2030-01-01T00:01:30.000Z');
    expect(clock.nowMs()).toBe(Date.parse('2030-01-01T00:01:30Z'));
    const real = new TestClock();
    expect(Math.abs(real.nowMs() - Date.now())).toBeLessThan(5000);
  });
});

describe('test tokens and users', () => {
  /** The builtin verifier as the services build it, on `clock`, remembering no token. */
  const verifierOn = (clock: TestClock) =>
    createAccessTokenVerifier({
      mode: 'builtin',
      secret: TEST_JWT_SECRET,
      issuer: 'care-platform',
      audience: 'care-platform',
      now: clock.nowMs,
      verifiedCacheSize: 0,
    });

  it('signTestToken signs what the builtin verifier accepts, 5 minutes by default', async () => {
    const clock = new TestClock();
    const verifier = verifierOn(clock);
    const token = signTestToken({ sub: 'u1', tenantId: 'acme', roles: ['VIEWER'] });
    await expect(verifier.verify(token)).resolves.toMatchObject({
      userId: 'u1',
      scopes: expect.arrayContaining(['chat:read']),
    });
    clock.advance(301);
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
    expect(() =>
      signTestToken({ sub: 'x' }, { audience: 'other' }, 'another-secret-of-thirty-two-bytes!!'),
    ).not.toThrow();
  });

  it('aUser builds unique callers, its principal and a token of it', async () => {
    const a = aUser().build();
    const b = aUser().build();
    expect(a.userId).not.toBe(b.userId);
    expect(a.email).not.toBe(b.email);
    expect(a).toMatchObject({ tenantId: 'acme', roles: ['USER'] });
    const admin = aUser({ tenantId: 'tenant-a' })
      .withId('u-7')
      .withEmail('x@example.test')
      .withRole('TENANT_ADMIN');
    expect(admin.build()).toEqual({
      userId: 'u-7',
      email: 'x@example.test',
      tenantId: 'tenant-a',
      roles: ['TENANT_ADMIN'],
    });
    expect(admin.inTenant('t2').principal()).toMatchObject({
      userId: 'u-7',
      tenantId: 't2',
      scopes: expect.arrayContaining(['admin:users']),
    });
    const v = verifierOn(new TestClock());
    const principal = await v.verify(admin.token());
    expect(principal).toMatchObject({
      userId: 'u-7',
      email: 'x@example.test',
      tenantId: 't2',
      roles: ['TENANT_ADMIN'],
    });
    expect(principal.tokenId).toEqual(expect.any(String));
    expect(admin.bearer()).toMatch(/^Bearer ey/);
    await expect(
      v.verify(admin.token({ secret: 'another-secret-of-thirty-two-bytes!!' })),
    ).rejects.toBeInstanceOf(InvalidTokenError);
  });
});
