import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { AppError } from './errors';

/** A counter's state: hits in its current window and milliseconds until the window (or lock) ends. */
export interface WindowCount {
  count: number;
  resetMs: number;
}

/**
 * Fixed-window counters shared by login throttling and rate limits (ADR 0009). In process by default; in Redis
 * when `REDIS_URL` is set, so every replica counts the same attempts.
 */
export interface WindowCounterStore {
  /** Counts one hit of `key`; a new window of `windowMs` starts with the first hit after the last one ended. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** Reads a counter without counting (`{count: 0, resetMs: 0}` when absent or expired). */
  peek(key: string): Promise<WindowCount>;
  /** Sets a counter to `count` for `ttlMs` (a lock). */
  put(key: string, count: number, ttlMs: number): Promise<void>;
  /** Forgets a counter. */
  remove(key: string): Promise<void>;
}

interface Slot {
  count: number;
  until: number;
}

/**
 * Counters in one process, bounded: past `maxKeys` the key whose window started first is forgotten (Map order is
 * insertion order and a key is re-inserted when its window restarts). Forgetting can only let a client through
 * early. `now` is injectable for tests.
 */
export class InMemoryWindowCounters implements WindowCounterStore {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly opts: { now?: () => number; maxKeys?: number } = {}) {}

  private get now(): number {
    return (this.opts.now ?? Date.now)();
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.now;
    let slot = this.live(key, now);
    if (!slot) {
      slot = { count: 0, until: now + windowMs };
      this.insert(key, slot);
    }
    slot.count++;
    return { count: slot.count, resetMs: slot.until - now };
  }

  async peek(key: string): Promise<WindowCount> {
    const now = this.now;
    const slot = this.live(key, now);
    return slot ? { count: slot.count, resetMs: slot.until - now } : { count: 0, resetMs: 0 };
  }

  async put(key: string, count: number, ttlMs: number): Promise<void> {
    this.insert(key, { count, until: this.now + ttlMs });
  }

  async remove(key: string): Promise<void> {
    this.slots.delete(key);
  }

  /** Number of keys held (tests). */
  get size(): number {
    return this.slots.size;
  }

  private live(key: string, now: number): Slot | undefined {
    const slot = this.slots.get(key);
    if (slot && slot.until <= now) {
      this.slots.delete(key);
      return undefined;
    }
    return slot;
  }

  private insert(key: string, slot: Slot): void {
    this.slots.delete(key);
    this.slots.set(key, slot);
    if (this.slots.size > (this.opts.maxKeys ?? 100_000)) {
      const oldest = this.slots.keys().next();
      if (!oldest.done) this.slots.delete(oldest.value);
    }
  }
}

/** The part of an ioredis client the Redis counters use. */
export interface RedisScriptClient {
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
}

// One round trip each, atomic on the server: INCR and the expiry of a new window cannot be split by a crash.
const HIT = `local c = redis.call('INCR', KEYS[1])
local t = redis.call('PTTL', KEYS[1])
if c == 1 or t < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) t = tonumber(ARGV[1]) end
return {c, t}`;
const PEEK = `local c = redis.call('GET', KEYS[1])
if not c then return {0, 0} end
return {tonumber(c), redis.call('PTTL', KEYS[1])}`;
const PUT = `redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1`;
const REMOVE = `return redis.call('DEL', KEYS[1])`;

/**
 * Counters in Redis under `prefix`, shared by every replica. Redis keeps the time (PEXPIRE/PTTL), so replica
 * clocks do not matter. An unreachable Redis is a 503 (`RATE_LIMIT_UNAVAILABLE`): failing open would lift the
 * limits exactly when someone can make Redis slow.
 */
export class RedisWindowCounters implements WindowCounterStore {
  constructor(
    private readonly client: RedisScriptClient,
    private readonly prefix: string,
  ) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    return this.pair(await this.run(HIT, key, Math.max(1, Math.ceil(windowMs))));
  }

  async peek(key: string): Promise<WindowCount> {
    return this.pair(await this.run(PEEK, key));
  }

  async put(key: string, count: number, ttlMs: number): Promise<void> {
    await this.run(PUT, key, count, Math.max(1, Math.ceil(ttlMs)));
  }

  async remove(key: string): Promise<void> {
    await this.run(REMOVE, key);
  }

  private async run(script: string, key: string, ...args: Array<string | number>): Promise<unknown> {
    try {
      return await this.client.eval(script, 1, this.prefix + key, ...args);
    } catch (err) {
      throw new AppError('RATE_LIMIT_UNAVAILABLE', 'The rate-limit store is unavailable', 503, {
        cause: err,
      });
    }
  }

  private pair(reply: unknown): WindowCount {
    const [count, ttl] = Array.isArray(reply) ? (reply as unknown[]).map(Number) : [0, 0];
    return { count: count ?? 0, resetMs: ttl !== undefined && ttl > 0 ? ttl : 0 };
  }
}

/**
 * Opens an ioredis client that fails fast (one retry, short timeouts) and reports connection errors through the
 * logger instead of crashing the process; it keeps reconnecting in the background, so a Redis that is away does
 * not stop the boot.
 */
export function connectRedis(url: string, logger: Pick<Logger, 'warn'>, label: string): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
    lazyConnect: true,
  });
  client.on('error', (err: Error) => logger.warn({ err: err.message }, `${label}: redis error`));
  client.connect().catch(() => undefined);
  return client;
}
