import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  createLogger,
  connectRedis,
  InMemoryWindowCounters,
  RedisWindowCounters,
  type WindowCounterStore,
} from '../src';

const redisUrl = process.env.TEST_REDIS_URL;

async function behavesAsFixedWindows(
  store: WindowCounterStore,
  wait: (ms: number) => Promise<void>,
): Promise<void> {
  const key = `k-${randomUUID()}`;
  expect(await store.peek(key)).toEqual({ count: 0, resetMs: 0 });
  expect((await store.hit(key, 300)).count).toBe(1);
  const second = await store.hit(key, 300);
  expect(second.count).toBe(2);
  expect(second.resetMs).toBeGreaterThan(0);
  expect(second.resetMs).toBeLessThanOrEqual(300);
  expect((await store.peek(key)).count).toBe(2);
  await wait(320);
  expect((await store.peek(key)).count).toBe(0);
  expect((await store.hit(key, 300)).count).toBe(1);
  await store.put(`${key}:lock`, 1, 1000);
  expect((await store.peek(`${key}:lock`)).resetMs).toBeGreaterThan(500);
  await store.remove(`${key}:lock`);
  expect((await store.peek(`${key}:lock`)).count).toBe(0);
}

describe('InMemoryWindowCounters', () => {
  it('counts hits per fixed window, expires them, holds locks and forgets the oldest keys past the bound', async () => {
    let now = 1_000;
    const store = new InMemoryWindowCounters({ now: () => now, maxKeys: 3 });
    await behavesAsFixedWindows(store, async (ms) => void (now += ms));
    for (const k of ['a', 'b', 'c', 'd']) await store.hit(k, 10_000);
    expect(store.size).toBe(3);
  });
});

(redisUrl ? describe : describe.skip)('RedisWindowCounters (real Redis)', () => {
  const clients: Redis[] = [];
  afterAll(async () => {
    for (const c of clients) await c.quit();
  });
  const open = () => {
    const c = connectRedis(redisUrl!, createLogger({ name: 't', level: 'silent' }), 'test');
    clients.push(c);
    return c;
  };

  it('behaves like the in-process counters', async () => {
    await behavesAsFixedWindows(
      new RedisWindowCounters(open(), `test:${randomUUID()}:`),
      (ms) => new Promise((r) => setTimeout(r, ms)),
    );
  });

  it('is one count for two clients (replicas) sharing the prefix', async () => {
    const prefix = `test:${randomUUID()}:`;
    const a = new RedisWindowCounters(open(), prefix);
    const b = new RedisWindowCounters(open(), prefix);
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).hit('ip', 60_000)));
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it('answers 503 RATE_LIMIT_UNAVAILABLE when Redis cannot be reached', async () => {
    const c = connectRedis('redis://127.0.0.1:1', createLogger({ name: 't', level: 'silent' }), 'test');
    await expect(new RedisWindowCounters(c, 'x:').hit('k', 1000)).rejects.toMatchObject({
      status: 503,
      code: 'RATE_LIMIT_UNAVAILABLE',
    });
    c.disconnect();
  });
});

if (!redisUrl) console.log('TEST_REDIS_URL is not set: the Redis counter tests are skipped');
