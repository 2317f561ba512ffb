import http from 'node:http';
import { freePort, startService, waitFor, type ServiceProcess } from './support/cluster';

const DRAIN_MS = 2000;
/**
 * A request whose connection the server has not yet accepted when the window ends is reset with the listener. On a
 * loaded machine the client's connect and the server's accept both lag the timestamp taken here, so the guarantee is
 * checked for requests sent up to this long before the window ends (the server's window starts when it reads the
 * signal, after the timestamp, so this only absorbs scheduling lag).
 */
const ACCEPT_LAG_MS = 250;

/** One GET on a fresh connection: the status, or 0 when the connection failed. */
function probe(port: number, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(5000, () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

const cases: Array<{
  name: string;
  env: Record<string, string>;
  load: string;
  readiness: string;
  headers?: Record<string, string>;
}> = [
  {
    name: 'memory',
    env: { EMBEDDING_PROVIDER: 'hashing', REMINDER_POLL_MS: '0', REFLECT_INTERVAL_SECONDS: '0' },
    load: '/api/v1/system/status',
    readiness: '/api/v1/system/health',
  },
  {
    name: 'platform-auth',
    env: { JWT_SECRET: 'a-test-secret-of-at-least-thirty-two-bytes' },
    load: '/actuator/health/liveness',
    readiness: '/actuator/health/readiness',
  },
];

describe.each(cases)(
  '$name drains on SIGTERM (real child process, steady load)',
  ({ name, env, load, readiness }) => {
    let svc: ServiceProcess;
    beforeAll(async () => {
      svc = startService(name, await freePort(), {
        APP_PROFILES_ACTIVE: 'dev',
        DATABASE_URI: 'pglite://memory',
        SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
        LOG_LEVEL: 'warn',
        ...env,
      });
      await waitFor(svc, readiness);
    });
    afterAll(() => {
      if (svc.child.exitCode === null) svc.child.kill('SIGKILL');
    });

    it(`answers every request sent before the ${DRAIN_MS} ms drain window ends, with readiness down from the start`, async () => {
      const sent: Array<{ at: number; status: Promise<number> }> = [];
      let stop = false;
      // Steady load: a new request on a new connection every 10 ms, as a load balancer that has not yet noticed.
      const loader = (async () => {
        while (!stop) {
          sent.push({ at: Date.now(), status: probe(svc.port, load) });
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      await new Promise((r) => setTimeout(r, 300));
      const exited = new Promise<number | null>((r) => svc.child.once('exit', (code) => r(code)));
      const sigterm = Date.now();
      svc.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      const readyDuringDrain = await probe(svc.port, readiness);
      await new Promise((r) => setTimeout(r, DRAIN_MS + 800 - (Date.now() - sigterm)));
      stop = true;
      await loader;
      const code = await exited;
      const results = await Promise.all(sent.map(async (s) => ({ at: s.at, status: await s.status })));
      const windowEnd = sigterm + DRAIN_MS;
      const beforeEnd = results.filter((r) => r.at < windowEnd - ACCEPT_LAG_MS);
      const afterSignal = beforeEnd.filter((r) => r.at >= sigterm);
      expect(readyDuringDrain).toBe(503);
      expect(afterSignal.length).toBeGreaterThan(40);
      expect(beforeEnd.filter((r) => r.status !== 200)).toEqual([]);
      // After the window the listener is closed: those requests fail to connect, and the process exits cleanly.
      expect(results.filter((r) => r.at > windowEnd + 300).every((r) => r.status === 0)).toBe(true);
      expect(code).toBe(0);
    });
  },
);
