/** Settings of the login throttle (see docs/platform-auth.md, "Lockout policy"). */
export interface LoginThrottleOptions {
  maxAccountFailures: number;
  lockoutSeconds: number;
  maxIpFailures: number;
  ipWindowSeconds: number;
  /** Milliseconds clock. */
  now: () => number;
  /** Most tracked keys per kind; the oldest are forgotten first. */
  maxEntries?: number;
}

interface AccountState {
  failures: number;
  firstFailureAt: number;
  lockedUntil: number;
}

interface IpState {
  failures: number;
  windowStart: number;
}

/**
 * In-process login throttling. Per account (normalised email, known or not, so a lock reveals nothing):
 * `maxAccountFailures` failures within `lockoutSeconds` lock the email for `lockoutSeconds`; a success clears
 * the count. Per client IP: `maxIpFailures` failures in a fixed `ipWindowSeconds` window refuse that IP until
 * the window ends. Refused attempts are not evaluated (no password check) and do not extend a lock.
 */
export class LoginThrottle {
  private readonly accounts = new Map<string, AccountState>();
  private readonly ips = new Map<string, IpState>();
  private readonly max: number;

  constructor(private readonly opts: LoginThrottleOptions) {
    this.max = opts.maxEntries ?? 100_000;
  }

  /** Seconds until another attempt is allowed, or 0 when the attempt may proceed. */
  retryAfter(email: string, ip: string): number {
    const now = this.opts.now();
    const account = this.accounts.get(email);
    const accountWait = account && account.lockedUntil > now ? account.lockedUntil - now : 0;
    const ipState = this.ips.get(ip);
    const windowEnd = ipState ? ipState.windowStart + this.opts.ipWindowSeconds * 1000 : 0;
    const ipWait = ipState && windowEnd > now && ipState.failures >= this.opts.maxIpFailures ? windowEnd - now : 0;
    return Math.ceil(Math.max(accountWait, ipWait) / 1000);
  }

  /** Counts a failed attempt against the email and the IP. */
  recordFailure(email: string, ip: string): void {
    const now = this.opts.now();
    const lockMs = this.opts.lockoutSeconds * 1000;
    let account = this.accounts.get(email);
    if (!account || now - account.firstFailureAt > lockMs) account = { failures: 0, firstFailureAt: now, lockedUntil: 0 };
    account.failures++;
    if (account.failures >= this.opts.maxAccountFailures) {
      account.lockedUntil = now + lockMs;
      account.failures = 0;
      account.firstFailureAt = now;
    }
    this.put(this.accounts, email, account);
    let ipState = this.ips.get(ip);
    if (!ipState || now - ipState.windowStart >= this.opts.ipWindowSeconds * 1000) ipState = { failures: 0, windowStart: now };
    ipState.failures++;
    this.put(this.ips, ip, ipState);
  }

  /** A successful login clears the email's failures (the IP window keeps counting). */
  recordSuccess(email: string): void {
    this.accounts.delete(email);
  }

  private put<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > this.max) map.delete(map.keys().next().value as string);
  }
}
