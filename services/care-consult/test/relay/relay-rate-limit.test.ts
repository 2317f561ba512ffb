import { FixedWindowRateLimiter } from '../../src/relay/relay.rate-limit';

describe('FixedWindowRateLimiter', () => {
  it('allows `limit` requests per key and window, then refuses until the window restarts', () => {
    let now = 1_000_000;
    const limiter = new FixedWindowRateLimiter({ limit: 2, windowMs: 10_000, now: () => now });
    expect([limiter.take('a').allowed, limiter.take('a').allowed]).toEqual([true, true]);
    now += 2_500;
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 8 });
    expect(limiter.take('b').allowed).toBe(true);
    now += 7_500;
    expect(limiter.take('a').allowed).toBe(true);
  });

  it('lets everything through when the limit is 0', () => {
    const limiter = new FixedWindowRateLimiter({ limit: 0 });
    for (let i = 0; i < 1000; i++) expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.size).toBe(0);
  });

  it('tracks at most maxKeys keys, dropping the oldest window first', () => {
    let now = 0;
    const limiter = new FixedWindowRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 3, now: () => now });
    for (const key of ['a', 'b', 'c']) {
      limiter.take(key);
      now += 1;
    }
    limiter.take('d');
    expect(limiter.size).toBe(3);
    // 'a' was forgotten (allowed again); 'c' is still counted (refused).
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('c').allowed).toBe(false);
    for (let i = 0; i < 10_000; i++) limiter.take(`spray-${i}`);
    expect(limiter.size).toBe(3);
  });

  it('refuses a negative or fractional limit', () => {
    expect(() => new FixedWindowRateLimiter({ limit: -1 })).toThrow(RangeError);
    expect(() => new FixedWindowRateLimiter({ limit: 1.5 })).toThrow(RangeError);
  });
});
