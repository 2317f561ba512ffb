// @care/db/testing: throwaway server databases and the skip notice when no server is configured.
import { Client } from 'pg';
import { createServerTestDatabase, serverTestUri } from '../src/testing';

describe('serverTestUri', () => {
  const saved = process.env.TEST_DATABASE_URI;
  afterEach(() => {
    if (saved === undefined) delete process.env.TEST_DATABASE_URI;
    else process.env.TEST_DATABASE_URI = saved;
    jest.restoreAllMocks();
  });

  it('returns TEST_DATABASE_URI when set, without a notice', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    process.env.TEST_DATABASE_URI = 'postgres://someone@db/test';
    expect(serverTestUri()).toBe('postgres://someone@db/test');
    expect(warn).not.toHaveBeenCalled();
  });

  it('returns undefined when unset and prints the skip notice once per process', () => {
    delete process.env.TEST_DATABASE_URI;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    // A fresh module copy, because this file's own copy may already have printed the notice.
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- isolateModules needs a synchronous load
      const fresh = require('../src/testing') as typeof import('../src/testing');
      expect(fresh.serverTestUri()).toBeUndefined();
      expect(fresh.serverTestUri()).toBeUndefined();
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/TEST_DATABASE_URI is not set.*skipped/);
  });
});

const baseUri = serverTestUri();
(baseUri ? describe : describe.skip)('createServerTestDatabase', () => {
  async function exists(name: string): Promise<boolean> {
    const client = new Client({ connectionString: baseUri });
    await client.connect();
    try {
      return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    } finally {
      await client.end();
    }
  }

  it('creates a uniquely named test_ database reachable at the returned uri, and drop() removes it', async () => {
    const [one, two] = [await createServerTestDatabase(baseUri!), await createServerTestDatabase(baseUri!)];
    try {
      expect(one.name).toMatch(/^test_[0-9a-f]{16}$/);
      expect(one.name).not.toBe(two.name);
      const client = new Client({ connectionString: one.uri });
      await client.connect();
      const current = await client.query('select current_database() as name');
      await client.end();
      expect(current.rows).toEqual([{ name: one.name }]);
    } finally {
      await one.drop();
      await two.drop();
    }
    expect(await exists(one.name)).toBe(false);
    await expect(one.drop()).resolves.toBeUndefined();
  });
});
