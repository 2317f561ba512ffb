import { randomBytes } from 'node:crypto';
import {
  InMemoryNonceStore,
  RedisNonceStore,
  issueRelayTicket,
  resolveRelayTicket,
  type NonceStore,
  type RelayKeys,
} from '@care/crypto';
import {
  connectRedis,
  csv,
  RedisWindowCounters,
  type Logger,
  type WindowCounterStore,
} from '@care/service-kit';
import type { AppConfig } from '../config';

/** What the relay needs beyond the app's config: signing keys and the shared set of consumed nonces. */
export interface RelayDeps {
  keys: RelayKeys;
  nonceStore: NonceStore;
  /** Callback rate-limit counts; Redis when REDIS_URL is set, so replicas share one limit (ADR 0009). */
  rateCounters?: WindowCounterStore;
}

/** Relay dependencies plus the resources they hold, for main's shutdown. */
export interface RelayRuntime {
  relay: RelayDeps;
  /** Closes the Redis connection, if one was opened. */
  close(): Promise<void>;
}

type RelayConfig = Pick<
  AppConfig,
  'RELAY_SIGNING_KEY' | 'RELAY_PREVIOUS_KEYS' | 'RELAY_COMPANION_SCHEME' | 'REDIS_URL'
>;

/**
 * Keys from RELAY_SIGNING_KEY and RELAY_PREVIOUS_KEYS. Without a signing key (dev only: prod refuses to start
 * by config rule) a random per-process key is used, so tickets work within one process and die with it.
 */
export function relayKeysFromConfig(
  config: Pick<RelayConfig, 'RELAY_SIGNING_KEY' | 'RELAY_PREVIOUS_KEYS'>,
  logger?: Pick<Logger, 'warn'>,
): RelayKeys {
  const previous = csv(config.RELAY_PREVIOUS_KEYS);
  if (config.RELAY_SIGNING_KEY) return { current: config.RELAY_SIGNING_KEY, previous };
  logger?.warn('RELAY_SIGNING_KEY is not set: relay tickets use a random per-process key (dev only)');
  return { current: randomBytes(32).toString('hex'), previous };
}

/**
 * Proves at startup that the keys and the companion scheme are usable by issuing and resolving one ticket
 * against a throwaway store, so a bad setting fails the boot instead of every later callback.
 */
export async function assertRelayUsable(keys: RelayKeys, companionScheme: string): Promise<void> {
  const { ticket } = issueRelayTicket(
    { uid: 'self-test', pid: 'self-test', cid: 'self-test', cb: 'http://127.0.0.1/self-test', ttlSeconds: 1 },
    keys,
    { companionScheme },
  );
  await resolveRelayTicket({
    relayTicket: ticket,
    authorizationCode: 'self-test',
    consumedNonces: new InMemoryNonceStore({ maxEntries: 1 }),
    keys,
    companionScheme,
  });
}

/**
 * Builds the relay's dependencies for main: keys from config (checked by {@link assertRelayUsable}) and the nonce
 * store, RedisNonceStore over ioredis when REDIS_URL is set, else InMemoryNonceStore. The Redis client fails fast
 * (one retry, short timeouts): a resolution that cannot reach Redis is rejected with a 503 (fail closed), and the
 * rest of the service keeps running while Redis is away, so an unreachable Redis does not stop the boot.
 */
export async function createRelayRuntime(
  config: RelayConfig,
  logger?: Pick<Logger, 'warn' | 'info'>,
): Promise<RelayRuntime> {
  const keys = relayKeysFromConfig(config, logger);
  await assertRelayUsable(keys, config.RELAY_COMPANION_SCHEME);
  if (!config.REDIS_URL) {
    return { relay: { keys, nonceStore: new InMemoryNonceStore() }, close: async () => undefined };
  }
  const client = connectRedis(config.REDIS_URL, logger ?? { warn: () => undefined }, 'relay nonce store');
  logger?.info('relay nonce store and rate limit: redis');
  return {
    relay: {
      keys,
      nonceStore: new RedisNonceStore({ client }),
      rateCounters: new RedisWindowCounters(client, 'care:care-consult:relay-rate:'),
    },
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
