import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { RedisNonceStore, issueRelayTicket, resolveRelayTicket } from '../src';
import { aResolveInput, anIssueInput, exampleKeys } from './relay-fixtures';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL)
  console.warn('redis-nonce-store.test: TEST_REDIS_URL is not set, skipping the Redis-backed tests');
const describeRedis = REDIS_URL ? describe : describe.skip;

describeRedis('RedisNonceStore against a real Redis', () => {
  // One prefix per run keeps parallel runs and other users of the server apart.
  const prefix = `care:test:relay:${randomBytes(6).toString('hex')}:`;
  let first: Redis;
  let second: Redis;

  beforeAll(() => {
    first = new Redis(REDIS_URL!, { lazyConnect: false, maxRetriesPerRequest: 1 });
    second = new Redis(REDIS_URL!, { lazyConnect: false, maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    const keys = await first.keys(`${prefix}*`);
    if (keys.length > 0) await first.del(...keys);
    await Promise.all([first.quit(), second.quit()]);
  });

  it('lets exactly one of two store instances sharing Redis accept a nonce', async () => {
    const a = new RedisNonceStore({ client: first, keyPrefix: prefix });
    const b = new RedisNonceStore({ client: second, keyPrefix: prefix });
    const exp = Math.floor(Date.now() / 1000) + 60;
    const results = await Promise.all([a.consume('shared-1', exp), b.consume('shared-1', exp)]);
    expect(results.sort()).toEqual([false, true]);
    expect(await a.consume('shared-1', exp)).toBe(false);
  });

  it('resolves a ticket once across two app instances, the other gets RELAY_NONCE_REPLAYED', async () => {
    const { ticket } = issueRelayTicket(anIssueInput(), exampleKeys());
    const resolveOn = (client: Redis) =>
      resolveRelayTicket(
        aResolveInput(ticket, {
          now: Date.now,
          consumedNonces: new RedisNonceStore({ client, keyPrefix: prefix }),
        }),
      ).then(
        () => 'RESOLVED',
        (error: { code: string }) => error.code,
      );
    const outcomes = await Promise.all([resolveOn(first), resolveOn(second)]);
    expect(outcomes.sort()).toEqual(['RELAY_NONCE_REPLAYED', 'RESOLVED']);
  });

  it('stores the nonce under the prefix with a TTL to expiry plus the clock skew, and Redis drops it', async () => {
    const nowMs = 1_700_000_000_000;
    const store = new RedisNonceStore({ client: first, keyPrefix: prefix, now: () => nowMs });
    expect(await store.consume('ttl-1', nowMs / 1000 + 60)).toBe(true);
    expect(await first.ttl(`${prefix}ttl-1`)).toBe(65);
    // An already-expired ticket is kept for at least one second; wait for Redis to drop it (bounded).
    expect(await store.consume('ttl-2', nowMs / 1000 - 100)).toBe(true);
    expect(await first.pttl(`${prefix}ttl-2`)).toBeLessThanOrEqual(1000);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await first.exists(`${prefix}ttl-2`)).toBe(0);
    expect(await store.consume('ttl-2', nowMs / 1000 + 60)).toBe(true);
  });
});

// These need no Redis server, so they also run (and the skip notice above is printed) without TEST_REDIS_URL.
describe('RedisNonceStore without a server', () => {
  const prefix = 'care:test:relay:offline:';

  it('refuses to be built without a client', () => {
    expect(() => new RedisNonceStore({} as never)).toThrow(TypeError);
  });

  it('fails closed with RELAY_NONCE_STORE_UNAVAILABLE when Redis cannot be reached', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 500,
    });
    dead.on('error', () => undefined);
    const store = new RedisNonceStore({ client: dead, keyPrefix: prefix });
    await expect(store.consume('down-1', Math.floor(Date.now() / 1000) + 60)).rejects.toMatchObject({
      code: 'RELAY_NONCE_STORE_UNAVAILABLE',
    });
    dead.disconnect();
  });
});
