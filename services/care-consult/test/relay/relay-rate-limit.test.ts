import { InMemoryWindowCounters } from '@care/service-kit';
import { FixedWindowRateLimiter } from '../../src/relay/relay.rate-limit';

describe('FixedWindowRateLimiter', () => {
  it('allows `limit` requests per key and window, then refuses until the window restarts', async () => {
    let now = 1_000_000;
    const limiter = new FixedWindowRateLimiter({ limit: 2, windowMs: 10_000, now: () => now });
    expect([(await limiter.take('a')).allowed, (await limiter.take('a')).allowed]).toEqual([true, true]);
    now += 2_500;
    expect(await limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 8 });
    expect((await limiter.take('b')).allowed).toBe(true);
    now += 7_500;
    expect((await limiter.take('a')).allowed).toBe(true);
  });

  it('lets everything through when the limit is 0', async () => {
    const store = new InMemoryWindowCounters();
    const limiter = new FixedWindowRateLimiter({ limit: 0, store });
    for (let i = 0; i < 1000; i++) expect((await limiter.take('a')).allowed).toBe(true);
    expect(store.size).toBe(0);
  });

  it('tracks at most maxKeys keys, dropping the oldest window first', async () => {
    let now = 0;
    const store = new InMemoryWindowCounters({ now: () => now, maxKeys: 3 });
    const limiter = new FixedWindowRateLimiter({ limit: 1, windowMs: 60_000, store });
    for (const key of ['a', 'b', 'c']) {
      await limiter.take(key);
      now += 1;
    }
    await limiter.take('d');
    expect(store.size).toBe(3);
    // 'a' was forgotten (allowed again); 'c' is still counted (refused).
    expect((await limiter.take('a')).allowed).toBe(true);
    expect((await limiter.take('c')).allowed).toBe(false);
    for (let i = 0; i < 10_000; i++) await limiter.take(`spray-${i}`);
    expect(store.size).toBe(3);
  });

  it('fails open only when told to, when the store is unreachable', async () => {
    const broken = { hit: () => Promise.reject(new Error('down')) } as never;
    await expect(new FixedWindowRateLimiter({ limit: 1, store: broken }).take('a')).rejects.toThrow('down');
    expect(await new FixedWindowRateLimiter({ limit: 1, store: broken, failOpen: true }).take('a')).toEqual({
      allowed: true,
      retryAfterSeconds: 0,
    });
  });

  it('refuses a negative or fractional limit', () => {
    expect(() => new FixedWindowRateLimiter({ limit: -1 })).toThrow(RangeError);
    expect(() => new FixedWindowRateLimiter({ limit: 1.5 })).toThrow(RangeError);
  });
});
