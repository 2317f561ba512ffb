import net from 'node:net';
import request from 'supertest';
import type { Database } from '@care/db';
import { openCareConsultDatabase } from '../../src/db/open-database';
import { createRelayRuntime, type RelayRuntime } from '../../src/relay/relay.deps';
import type { TestContext } from '../support/test-app';
import { aUser } from '../builders/user.builder';
import { CALLBACK, RELAY_ENV, callbackQuery, relayTestContext } from './support/relay-fixtures';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) console.warn('TEST_REDIS_URL is not set: relay tests against a real Redis are skipped');
const withRedis = REDIS_URL ? describe : describe.skip;

const relayConfig = (redisUrl: string) => ({
  RELAY_SIGNING_KEY: RELAY_ENV.RELAY_SIGNING_KEY,
  RELAY_PREVIOUS_KEYS: RELAY_ENV.RELAY_PREVIOUS_KEYS,
  RELAY_COMPANION_SCHEME: 'careapp',
  REDIS_URL: redisUrl,
});

describe('relay nonce store in main wiring', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openCareConsultDatabase({ uri: 'pglite://memory' });
  });
  afterAll(async () => {
    await database.close();
  });

  it('fails closed with 503 and no redirect when REDIS_URL points at no server', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const runtime = await createRelayRuntime(relayConfig(`redis://127.0.0.1:${port}`));
    const ctx = await relayTestContext({ database, overrides: { relay: runtime.relay } });
    try {
      const issued = await request(ctx.app)
        .post('/api/relay/tickets')
        .set('Authorization', `Bearer ${aUser().token()}`)
        .send({ profile_id: 'p', connection_id: 'c', callback_url: 'http://127.0.0.1:9/cb', ttl_seconds: 30 })
        .expect(201);
      const res = await request(ctx.app).get(`${CALLBACK}?${callbackQuery('code-1', issued.body.ticket)}`);
      expect({ status: res.status, code: res.body.code, location: res.headers.location }).toEqual({
        status: 503,
        code: 'RELAY_NONCE_STORE_UNAVAILABLE',
        location: undefined,
      });
    } finally {
      await ctx.close();
      await runtime.close();
    }
  });
});

withRedis('relay across two app instances sharing Redis', () => {
  let database: Database;
  let runtimes: RelayRuntime[];
  let apps: TestContext[];

  beforeAll(async () => {
    database = await openCareConsultDatabase({ uri: 'pglite://memory' });
    // Two replicas: separate apps, separate Redis connections, separate in-process state; only Redis is shared.
    runtimes = [
      await createRelayRuntime(relayConfig(REDIS_URL!)),
      await createRelayRuntime(relayConfig(REDIS_URL!)),
    ];
    apps = [
      await relayTestContext({ database, overrides: { relay: runtimes[0].relay } }),
      await relayTestContext({ database, overrides: { relay: runtimes[1].relay } }),
    ];
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    for (const r of runtimes) await r.close();
    await database.close();
  });

  const issue = async (app: TestContext): Promise<string> => {
    const res = await request(app.app)
      .post('/api/relay/tickets')
      .set('Authorization', `Bearer ${aUser().token()}`)
      .send({ profile_id: 'p', connection_id: 'c', callback_url: 'http://127.0.0.1:9/cb', ttl_seconds: 60 })
      .expect(201);
    return res.body.ticket as string;
  };

  it('rejects on the second replica a ticket the first one already resolved', async () => {
    const ticket = await issue(apps[0]);
    await request(apps[1].app)
      .get(`${CALLBACK}?${callbackQuery('code-1', ticket)}`)
      .expect(302);
    const replay = await request(apps[0].app).get(`${CALLBACK}?${callbackQuery('code-1', ticket)}`);
    expect({ status: replay.status, code: replay.body.code, location: replay.headers.location }).toEqual({
      status: 400,
      code: 'RELAY_NONCE_REPLAYED',
      location: undefined,
    });
  });

  it('redirects exactly once when both replicas receive the same ticket at the same time', async () => {
    for (let round = 0; round < 20; round++) {
      const ticket = await issue(apps[round % 2]);
      const answers = await Promise.all(
        [0, 1, 0, 1].map((i) => request(apps[i].app).get(`${CALLBACK}?${callbackQuery('code-1', ticket)}`)),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([302, 400, 400, 400]);
    }
  });

  it('counts the callback rate limit once across both replicas', async () => {
    const limited = [
      await relayTestContext({
        database,
        overrides: { relay: runtimes[0].relay },
        env: { RELAY_CALLBACK_RATE_LIMIT: '3', TRUST_PROXY: 'true' },
      }),
      await relayTestContext({
        database,
        overrides: { relay: runtimes[1].relay },
        env: { RELAY_CALLBACK_RATE_LIMIT: '3', TRUST_PROXY: 'true' },
      }),
    ];
    try {
      // A client address of its own, so other runs sharing this Redis do not count against it.
      const ip = `198.51.100.${Math.floor(Math.random() * 200)}:${Date.now()}`;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await request(limited[i % 2].app)
          .get(`${CALLBACK}?${callbackQuery('code-1', 'not-a-ticket')}`)
          .set('X-Forwarded-For', ip);
        statuses.push(res.status);
      }
      // Two per replica: in-process counting would never reach the limit of 3.
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      for (const a of limited) await a.close();
    }
  });
});
