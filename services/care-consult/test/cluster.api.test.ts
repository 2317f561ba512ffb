import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { createServerTestDatabase, serverTestUri, type ServerTestDatabase } from '@care/db/testing';
import { loadAppConfig } from '../src/config';

const SERVICE = path.resolve(__dirname, '..');
const REGISTER = path.join(__dirname, 'support', 'register-ts.cjs');
const RELAY_SIGNING_KEY = 'cluster-test-relay-key-0123456789abcdef';
const POSTGRES_URI = serverTestUri();
const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL)
  console.warn('TEST_REDIS_URL is not set: the two-worker start against PostgreSQL and Redis is skipped');
const withServers = POSTGRES_URI && REDIS_URL ? it : it.skip;

/** Starts `src/main.ts` in a child process with only `env` (plus PATH), collecting its JSON log lines. */
function startService(env: Record<string, string>): {
  child: ChildProcess;
  lines: Array<Record<string, unknown>>;
  stderr: () => string;
} {
  const child = spawn(process.execPath, ['-r', REGISTER, path.join(SERVICE, 'src', 'main.ts')], {
    cwd: SERVICE,
    env: { PATH: process.env.PATH ?? '', WORKSPACE_WATCH: 'false', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let tail = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (tail + chunk).split('\n');
    tail = parts.pop() ?? '';
    for (const p of parts) {
      try {
        lines.push(JSON.parse(p) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  return { child, lines, stderr: () => err };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** GET on a fresh connection each time, so the cluster picks a worker per request. */
const getStatus = (port: number, p: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: p, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });

describe('WEB_CONCURRENCY: worker processes behind one port (ADR 0406)', () => {
  it('refuses more than one worker on the embedded database, or without Redis or a relay signing key', () => {
    const shared = { REDIS_URL: 'redis://127.0.0.1:6379', RELAY_SIGNING_KEY };
    expect(loadAppConfig({}).WEB_CONCURRENCY).toBe(1);
    expect(() => loadAppConfig({ WEB_CONCURRENCY: '2', ...shared })).toThrow(
      /WEB_CONCURRENCY > 1 needs a PostgreSQL server/,
    );
    expect(() => loadAppConfig({ WEB_CONCURRENCY: '2', DATABASE_URI: 'pglite://memory', ...shared })).toThrow(
      /embedded database belongs to one process/,
    );
    const pg = { DATABASE_URI: 'postgres://care@127.0.0.1:5432/care' };
    expect(() => loadAppConfig({ WEB_CONCURRENCY: '2', ...pg, RELAY_SIGNING_KEY })).toThrow(
      /needs REDIS_URL/,
    );
    expect(() => loadAppConfig({ WEB_CONCURRENCY: '2', ...pg, REDIS_URL: shared.REDIS_URL })).toThrow(
      /needs RELAY_SIGNING_KEY/,
    );
    expect(() => loadAppConfig({ WEB_CONCURRENCY: '0' })).toThrow(/WEB_CONCURRENCY/);
    expect(loadAppConfig({ WEB_CONCURRENCY: '2', ...pg, ...shared }).WEB_CONCURRENCY).toBe(2);
  });

  it('exits with the reason, before listening, when two workers are asked for on embedded storage', async () => {
    const port = await freePort();
    const service = startService({
      WEB_CONCURRENCY: '2',
      PORT: String(port),
      DATA_DIR: '/nonexistent/never-created',
    });
    expect(await exited(service.child)).toBe(1);
    expect(service.stderr()).toMatch(/WEB_CONCURRENCY > 1 needs a PostgreSQL server/);
    await expect(getStatus(port, '/api/health')).rejects.toThrow(/ECONNREFUSED/);
  });

  describe('against PostgreSQL and Redis', () => {
    let db: ServerTestDatabase | undefined;
    let service: ReturnType<typeof startService> | undefined;
    afterAll(async () => {
      if (service && service.child.exitCode === null) {
        service.child.kill('SIGKILL');
        await exited(service.child);
      }
      await db?.drop();
    });

    withServers(
      'serves one port from two worker processes and stops both on SIGTERM',
      async () => {
        db = await createServerTestDatabase(POSTGRES_URI!);
        const port = await freePort();
        service = startService({
          WEB_CONCURRENCY: '2',
          PORT: String(port),
          DATABASE_URI: db.uri,
          REDIS_URL: REDIS_URL!,
          RELAY_SIGNING_KEY,
          JWT_SECRET: 'cluster-test-jwt-secret-0123456789abcdef',
        });
        const { child, lines } = service;
        const listening = () => lines.filter((l) => l.msg === 'listening');
        // Generous: each worker loads the screen's and the router's models; on two busy shared cores that took 2 min.
        await until(
          () => listening().length === 2 || child.exitCode !== null,
          240_000,
          'two workers listening',
        );
        const workers = new Set(listening().map((l) => l.pid));
        expect(workers.size).toBe(2);
        expect(workers.has(child.pid)).toBe(false);

        const statuses = [];
        for (let i = 0; i < 12; i++) statuses.push(await getStatus(port, '/api/health'));
        expect(statuses.every((s) => s === 200)).toBe(true);
        await until(
          () =>
            lines.filter((l) => (l.req as { path?: string } | undefined)?.path === '/api/health').length ===
            12,
          10_000,
          'access log lines',
        );
        const served = new Set(
          lines
            .filter((l) => (l.req as { path?: string } | undefined)?.path === '/api/health')
            .map((l) => l.pid),
        );
        expect(served).toEqual(workers);

        child.kill('SIGTERM');
        expect(await exited(child)).toBe(0);
        for (const pid of workers) expect(() => process.kill(pid as number, 0)).toThrow();
      },
      300_000,
    );
  });
});
