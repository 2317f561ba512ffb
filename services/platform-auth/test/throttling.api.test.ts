import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createLogger } from '@care/service-kit';
import { LoginCounters } from '../src/auth/login-throttle';
import { listAuthEvents } from '../src/audit/audit.repository';
import { aUser, seedUser } from './builders/user.builder';
import { buildApp, openTestDb, testConfig, type TestApp, type TestDb } from './support/harness';

describe('login throttling (429 + Retry-After)', () => {
  let t: TestDb;
  let h: TestApp;
  beforeAll(async () => {
    t = await openTestDb();
    h = buildApp(t.db, {
      LOGIN_MAX_ACCOUNT_FAILURES: '3',
      LOGIN_LOCKOUT_SECONDS: '120',
      LOGIN_MAX_IP_FAILURES: '6',
      LOGIN_IP_WINDOW_SECONDS: '60',
      TRUST_PROXY: 'true',
    });
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, ip: string) =>
    request(h.app).post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ email, password });

  it('locks an account after repeated failures, even for the right password, until the lockout ends', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    for (let i = 0; i < 3; i++)
      expect((await login(u.email, 'wrong-password', `198.51.100.${i}`)).status).toBe(401);
    const locked = await login(u.email, u.password, '198.51.100.50');
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('LOGIN_THROTTLED');
    expect(Number(locked.headers['retry-after'])).toBe(120);
    h.clock.advance(121);
    expect((await login(u.email, u.password, '198.51.100.50')).status).toBe(200);
    const throttled = (await t.db.withSystem((tx) => listAuthEvents(tx, { limit: 100 }))).filter(
      (e) => e.type === 'LOGIN_THROTTLED',
    );
    expect(throttled.some((e) => e.email === u.email)).toBe(true);
  });

  it('locks unknown emails the same way, so a 429 reveals nothing about existence', async () => {
    for (let i = 0; i < 3; i++) await login('ghost@example.test', 'whatever-pass', `192.0.2.${i}`);
    const res = await login('ghost@example.test', 'whatever-pass', '192.0.2.99');
    expect(res.status).toBe(429);
  });

  it('refuses an IP that fails across many accounts, while other IPs still log in', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    for (let i = 0; i < 6; i++) await login(`spray${i}@example.test`, 'guess-guess', '203.0.113.9');
    const blocked = await login(u.email, u.password, '203.0.113.9');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(u.email, u.password, '203.0.113.10')).status).toBe(200);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
(redisUrl ? describe : describe.skip)('login throttling shared by two app instances through Redis', () => {
  let t: TestDb;
  const counters: LoginCounters[] = [];
  afterAll(async () => {
    for (const c of counters) await c.close();
    await t.close();
  });

  it('locks an email and refuses an IP after the configured failures summed over both replicas, not per replica', async () => {
    t = await openTestDb();
    const env = {
      LOGIN_MAX_ACCOUNT_FAILURES: '4',
      LOGIN_LOCKOUT_SECONDS: '120',
      LOGIN_MAX_IP_FAILURES: '6',
      LOGIN_IP_WINDOW_SECONDS: '60',
      TRUST_PROXY: 'true',
      REDIS_URL: redisUrl!,
    };
    const replicas = [0, 1].map(() => {
      const c = new LoginCounters(testConfig(env), createLogger({ name: 'test', level: 'silent' }));
      counters.push(c);
      return buildApp(t.db, env, { loginCounters: c.store });
    });
    const u = await seedUser(t.db, replicas[0]!.hasher, aUser().build());
    const run = randomUUID().slice(0, 8);
    const login = (i: number, email: string, password: string, ip: string) =>
      request(replicas[i % 2]!.app)
        .post('/api/v1/auth/login')
        .set('X-Forwarded-For', ip)
        .send({ email, password });
    // Four failures, two on each replica: in-process counting would allow four per replica.
    for (let i = 0; i < 4; i++)
      expect((await login(i, u.email, 'wrong-password', `10.${i}.0.1`)).status).toBe(401);
    for (const i of [0, 1]) {
      const locked = await login(i, u.email, u.password, '10.9.9.9');
      expect(locked.status).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(100);
    }
    const ip = `192.0.2.${Math.floor(Math.random() * 250)}-${run}`;
    for (let i = 0; i < 6; i++) await login(i, `spray${i}-${run}@example.test`, 'guess-guess', ip);
    for (const i of [0, 1])
      expect((await login(i, `fresh-${run}@example.test`, 'whatever-pass', ip)).status).toBe(429);
  });
});
