import { createPublicKey, type KeyObject } from 'node:crypto';
import type { JwksClient } from 'jwks-rsa';
import { ServiceUnavailableError } from '../errors';
import type { AccessTokenVerifierConfig, KeyLookup } from './access-token-verifier';

const KID = /^[\x21-\x7e]{1,256}$/;
const KNOWN_KIDS_MAX = 64;

/**
 * Public keys of an identity provider through jwks-rsa (cache and rate limit on). jwks-rsa's limiter queues
 * callers when its budget is spent, which would hold a flood of unknown-kid requests open for minutes, so a
 * synchronous budget in front of it refuses lookups of never-seen kids at once beyond the per-minute limit.
 * Kids seen before go straight to jwks-rsa's cache.
 */
export function createJwksKeySource(
  cfg: AccessTokenVerifierConfig,
  invalid: (reason: string) => Error,
): KeyLookup {
  if (!cfg.jwksUri) throw new Error('External mode needs a JWKS URI');
  const perMinute = cfg.jwksRequestsPerMinute ?? 10;
  const now = cfg.now ?? Date.now;
  // Loaded only in external mode: jwks-rsa pulls in ESM-only jose, which builtin-only consumers never need.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const jwksRsa = require('jwks-rsa') as typeof import('jwks-rsa');
  const client: JwksClient = jwksRsa({
    jwksUri: cfg.jwksUri,
    cache: true,
    cacheMaxEntries: 16,
    cacheMaxAge: cfg.jwksCacheMaxAgeMs ?? 600_000,
    rateLimit: true,
    // Headroom over our own budget: cache refreshes of known kids also count against jwks-rsa's limit.
    jwksRequestsPerMinute: perMinute * 2,
    timeout: cfg.jwksTimeoutMs ?? 5000,
  });
  const known = new Set<string>();
  // Parsed keys by PEM: jwks-rsa hands out PEM text, and parsing it on every request costs more than verifying.
  const parsed = new Map<string, KeyObject>();
  let windowStart = now();
  let spent = 0;

  const admitUnknown = (): boolean => {
    const t = now();
    if (t - windowStart >= 60_000) {
      windowStart = t;
      spent = 0;
    }
    if (spent >= perMinute) return false;
    spent++;
    return true;
  };

  return async (alg, kid) => {
    if (typeof kid !== 'string' || !KID.test(kid)) throw invalid('missing or malformed kid');
    if (!known.has(kid) && !admitUnknown()) throw invalid('jwks rate limited');
    let key;
    try {
      key = await client.getSigningKey(kid);
    } catch (err) {
      const e = err as { name?: string; isEndpointUnavailable?: boolean };
      // An unreachable provider is our outage, not the caller's fault: 503 keeps clients from logging in again.
      if (e.isEndpointUnavailable)
        throw new ServiceUnavailableError('The identity provider keys are unavailable', 'JWKS_UNAVAILABLE');
      throw invalid(e.name === 'JwksRateLimitError' ? 'jwks rate limited' : 'unknown kid');
    }
    if (!known.has(kid)) {
      if (known.size >= KNOWN_KIDS_MAX) known.delete(known.values().next().value as string);
      known.add(kid);
    }
    if (key.alg && key.alg !== alg) throw invalid('key algorithm mismatch');
    const pem = key.getPublicKey();
    let keyObject = parsed.get(pem);
    if (!keyObject) {
      if (parsed.size >= KNOWN_KIDS_MAX) parsed.delete(parsed.keys().next().value as string);
      keyObject = createPublicKey(pem);
      parsed.set(pem, keyObject);
    }
    return keyObject;
  };
}
