import {
  connectRedis,
  InMemoryWindowCounters,
  RedisWindowCounters,
  type Logger,
  type WindowCounterStore,
} from '@care/service-kit';
import type { Config } from '../config';

/** Settings of the login throttle (see docs/platform-auth.md, "Lockout policy"). */
interface LoginThrottleOptions {
  maxAccountFailures: number;
  lockoutSeconds: number;
  maxIpFailures: number;
  ipWindowSeconds: number;
  /** Where the counts live: in process by default, Redis when `REDIS_URL` is set (shared by replicas, ADR 0009). */
  store?: WindowCounterStore;
  /** Milliseconds clock of the default in-process store. */
  now?: () => number;
  /** Most tracked keys of the default in-process store; the oldest are forgotten first. */
  maxEntries?: number;
}

/**
 * Login throttling. Per account (normalised email, known or not, so a lock reveals nothing):
 * `maxAccountFailures` failures within `lockoutSeconds` lock the email for `lockoutSeconds`; a success clears
 * the count. Per client IP: `maxIpFailures` failures in a fixed `ipWindowSeconds` window refuse that IP until
 * the window ends. Refused attempts are not evaluated (no password check) and do not extend a lock. The counts
 * live in a {@link WindowCounterStore}, so N replicas sharing Redis allow the attempts of one, not N times as many.
 */
export class LoginThrottle {
  private readonly store: WindowCounterStore;

  constructor(private readonly opts: LoginThrottleOptions) {
    this.store =
      opts.store ?? new InMemoryWindowCounters({ now: opts.now, maxKeys: opts.maxEntries ?? 100_000 });
  }

  /** Seconds until another attempt is allowed, or 0 when the attempt may proceed. */
  async retryAfter(email: string, ip: string): Promise<number> {
    const [lock, ipCount] = await Promise.all([
      this.store.peek(`lock:${email}`),
      this.store.peek(`ip:${ip}`),
    ]);
    const accountWait = lock.count > 0 ? lock.resetMs : 0;
    const ipWait = ipCount.count >= this.opts.maxIpFailures ? ipCount.resetMs : 0;
    return Math.ceil(Math.max(accountWait, ipWait) / 1000);
  }

  /** Counts a failed attempt against the email and the IP. */
  async recordFailure(email: string, ip: string): Promise<void> {
    const lockMs = this.opts.lockoutSeconds * 1000;
    const [account] = await Promise.all([
      this.store.hit(`fail:${email}`, lockMs),
      this.store.hit(`ip:${ip}`, this.opts.ipWindowSeconds * 1000),
    ]);
    if (account.count >= this.opts.maxAccountFailures) {
      await this.store.put(`lock:${email}`, 1, lockMs);
      await this.store.remove(`fail:${email}`);
    }
  }

  /** A successful login clears the email's failures (the IP window keeps counting). */
  async recordSuccess(email: string): Promise<void> {
    await this.store.remove(`fail:${email}`);
  }
}

/**
 * The login throttle's counter store and how to release it: in Redis when `REDIS_URL` is set (shared by every
 * replica, ADR 0009), else in process.
 */
export class LoginCounters {
  readonly store: WindowCounterStore;
  private readonly client: ReturnType<typeof connectRedis> | undefined;

  constructor(config: Pick<Config, 'REDIS_URL'>, logger: Logger, clock: () => Date = () => new Date()) {
    this.client = config.REDIS_URL ? connectRedis(config.REDIS_URL, logger, 'login throttle') : undefined;
    this.store = this.client
      ? new RedisWindowCounters(this.client, 'care:platform-auth:login:')
      : new InMemoryWindowCounters({ now: () => clock().getTime() });
  }

  async close(): Promise<void> {
    const client = this.client;
    await client?.quit().catch(() => client.disconnect());
  }
}
