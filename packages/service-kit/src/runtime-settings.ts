/** Default `SHUTDOWN_DRAIN_MS` per profile (ADR 0007): long enough for endpoint removal to reach every proxy in prod. */
const DEFAULT_DRAIN_MS = { dev: 0, prod: 5000 } as const;

/** The drain window: the configured `SHUTDOWN_DRAIN_MS`, else the profile's default. */
export function shutdownDrainMs(profile: string | undefined, configured: number | undefined): number {
  if (configured !== undefined) return configured;
  return profile === 'prod' ? DEFAULT_DRAIN_MS.prod : DEFAULT_DRAIN_MS.dev;
}

/**
 * Parses `TRUST_PROXY` into Express's `trust proxy` value: `true`/`false`, a hop count, or a comma list of
 * addresses, CIDRs or the names `loopback`, `linklocal`, `uniquelocal` (ADR 0009). It decides `req.ip`, which the
 * login throttle and the relay rate limit count by.
 */
export function trustProxySetting(value: string | undefined): boolean | number | string {
  const v = (value ?? 'false').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  return /^\d+$/.test(v) ? Number(v) : v;
}
