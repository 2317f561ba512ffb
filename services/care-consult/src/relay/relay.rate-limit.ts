/** Options of {@link FixedWindowRateLimiter}. */
export interface RateLimiterOptions {
  /** Requests allowed per key and window; 0 turns the limiter off. */
  limit: number;
  /** Window length in milliseconds (default one minute). */
  windowMs?: number;
  /** Most keys tracked at once (default 10 000); memory stays bounded under a spray of source addresses. */
  maxKeys?: number;
  /** Current time in milliseconds (default Date.now). */
  now?: () => number;
}

/** Verdict of one {@link FixedWindowRateLimiter.take}. */
export interface RateDecision {
  allowed: boolean;
  /** Seconds until the key's window resets (only meaningful when not allowed). */
  retryAfterSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Per-key fixed-window counter, in process (each replica counts its own traffic). A legitimate browser hits the
 * relay callback once per connection, so the limit only slows down someone guessing at it. When `maxKeys` keys
 * are tracked, the key with the oldest window is dropped: forgetting a key can only let a
 * client through early, never turn a valid callback into a redirect it would not otherwise get.
 */
export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: RateLimiterOptions) {
    this.limit = options.limit;
    this.windowMs = options.windowMs ?? 60_000;
    this.maxKeys = options.maxKeys ?? 10_000;
    this.now = options.now ?? Date.now;
    if (!Number.isSafeInteger(this.limit) || this.limit < 0)
      throw new RangeError('limit must be a non-negative integer');
    if (!(this.windowMs > 0) || !(this.maxKeys > 0))
      throw new RangeError('windowMs and maxKeys must be positive');
  }

  /** Whether the limiter is active at all. */
  get enabled(): boolean {
    return this.limit > 0;
  }

  /** Counts one request of `key` and says whether it may proceed. */
  take(key: string): RateDecision {
    if (!this.enabled) return { allowed: true, retryAfterSeconds: 0 };
    const now = this.now();
    let w = this.windows.get(key);
    if (w === undefined || now - w.start >= this.windowMs) {
      if (w !== undefined) this.windows.delete(key);
      else if (this.windows.size >= this.maxKeys) this.dropOldest();
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    const retryAfterSeconds = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    return { allowed: w.count <= this.limit, retryAfterSeconds };
  }

  /** Number of keys tracked (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  // Map iteration is insertion order and a key is re-inserted whenever its window restarts, so the first key has
  // the oldest window: dropping it is O(1) and removes expired windows before live ones.
  private dropOldest(): void {
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}
