import { RelayError } from './relay-error';
import type { NonceStore } from './nonce-store';
import { RELAY_CLOCK_SKEW_SECONDS } from './relay-ticket';

/** The one Redis command the store needs, as ioredis types it: `SET key value EX seconds NX`. */
export interface RedisSetClient {
  set(key: string, value: string, secondsToken: 'EX', seconds: number, nx: 'NX'): Promise<'OK' | null>;
}

/** Options of the Redis-backed store. */
export interface RedisNonceStoreOptions {
  /** An ioredis-compatible client (the caller owns its connection and closes it). */
  client: RedisSetClient;
  /** Key prefix (default `care:relay:nonce:`). */
  keyPrefix?: string;
  /** Current time in milliseconds (default Date.now), used to turn the expiry instant into a TTL. */
  now?: () => number;
}

/** Default key prefix of consumed nonces in Redis. */
const DEFAULT_REDIS_NONCE_PREFIX = 'care:relay:nonce:';

/**
 * Nonce store shared by every replica through Redis: `SET <prefix><nonce> 1 EX <ttl> NX` is atomic, so exactly one
 * replica sees a nonce first. The TTL runs to the ticket's expiry plus RELAY_CLOCK_SKEW_SECONDS (a replica whose
 * clock lags still finds the nonce) and Redis drops the key after that. A Redis failure is rethrown as
 * RelayError RELAY_NONCE_STORE_UNAVAILABLE, so the resolution fails closed.
 */
export class RedisNonceStore implements NonceStore {
  private readonly client: RedisSetClient;
  private readonly keyPrefix: string;
  private readonly now: () => number;

  constructor(options: RedisNonceStoreOptions) {
    if (!options || typeof options.client?.set !== 'function')
      throw new TypeError('a Redis client is required');
    this.client = options.client;
    this.keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_NONCE_PREFIX;
    this.now = options.now ?? Date.now;
  }

  /** See {@link NonceStore.consume}. */
  async consume(nonce: string, expiresAtSec: number): Promise<boolean> {
    if (typeof nonce !== 'string' || nonce.length === 0 || !Number.isSafeInteger(expiresAtSec)) {
      throw new TypeError('consume needs a non-empty nonce and an integer expiry');
    }
    const ttl = Math.max(1, expiresAtSec - Math.floor(this.now() / 1000) + RELAY_CLOCK_SKEW_SECONDS);
    let reply: 'OK' | null;
    try {
      reply = await this.client.set(`${this.keyPrefix}${nonce}`, '1', 'EX', ttl, 'NX');
    } catch (cause) {
      throw new RelayError('RELAY_NONCE_STORE_UNAVAILABLE', 'the nonce store is unavailable', { cause });
    }
    return reply === 'OK';
  }
}
