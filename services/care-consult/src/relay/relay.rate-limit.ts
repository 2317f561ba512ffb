import { InMemoryWindowCounters, type WindowCounterStore } from '@care/service-kit';

/** Options of {@link FixedWindowRateLimiter}. */
export interface RateLimiterOptions {
  /** Requests allowed per key and window; 0 turns the limiter off. */
  limit: number;
  /** Window length in milliseconds (default one minute). */
  windowMs?: number;
  /** Where the counts live: in process by default, Redis when `REDIS_URL` is set (shared by replicas, ADR 0009). */
  store?: WindowCounterStore;
  /** Most keys the default in-process store tracks at once (default 10 000). */
  maxKeys?: number;
  /** Current time in milliseconds of the default in-process store (default Date.now). */
  now?: () => number;
  /** Let requests through when the store cannot be reached (only where another check fails closed). */
  failOpen?: boolean;
}

/** Verdict of one {@link FixedWindowRateLimiter.take}. */
export interface RateDecision {
  allowed: boolean;
  /** Seconds until the key's window resets (only meaningful when not allowed). */
  retryAfterSeconds: number;
}

/**
 * Per-key fixed-window counter. A legitimate browser hits the relay callback once per connection, so the limit
 * only slows down someone guessing at it. In process, when `maxKeys` keys are tracked the key with the oldest
 * window is dropped: forgetting a key can only let a client through early, never turn a valid callback into a
 * redirect it would not otherwise get. With a Redis store every replica counts the same window.
 */
export class FixedWindowRateLimiter {
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly store: WindowCounterStore;
  private readonly failOpen: boolean;

  constructor(options: RateLimiterOptions) {
    this.limit = options.limit;
    this.windowMs = options.windowMs ?? 60_000;
    const maxKeys = options.maxKeys ?? 10_000;
    if (!Number.isSafeInteger(this.limit) || this.limit < 0)
      throw new RangeError('limit must be a non-negative integer');
    if (!(this.windowMs > 0) || !(maxKeys > 0)) throw new RangeError('windowMs and maxKeys must be positive');
    this.store = options.store ?? new InMemoryWindowCounters({ now: options.now, maxKeys });
    this.failOpen = options.failOpen ?? false;
  }

  /** Whether the limiter is active at all. */
  get enabled(): boolean {
    return this.limit > 0;
  }

  /** Counts one request of `key` and says whether it may proceed. */
  async take(key: string): Promise<RateDecision> {
    if (!this.enabled) return { allowed: true, retryAfterSeconds: 0 };
    let hit;
    try {
      hit = await this.store.hit(key, this.windowMs);
    } catch (err) {
      if (this.failOpen) return { allowed: true, retryAfterSeconds: 0 };
      throw err;
    }
    const { count, resetMs } = hit;
    return { allowed: count <= this.limit, retryAfterSeconds: Math.max(1, Math.ceil(resetMs / 1000)) };
  }
}
