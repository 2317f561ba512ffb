import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt, { type Algorithm, type JwtPayload } from 'jsonwebtoken';
import { UnauthorizedError } from '../errors';
import { createJwksKeySource } from './jwks-key-source';
import { rolesToScopes } from './role-scopes';

/** Settings of {@link createAccessTokenVerifier}. */
export interface AccessTokenVerifierConfig {
  /** `builtin`: HS256 with `secret`; `external`: RS256/ES256 keys from `jwksUri`. */
  mode: 'builtin' | 'external';
  /** HS256 key, at least 32 bytes (builtin mode). */
  secret?: string;
  issuer: string;
  audience: string;
  /** JWKS endpoint of the identity provider (external mode). */
  jwksUri?: string;
  /** Pinned algorithms; builtin allows only HS256, external only RS256/ES256 (default both). */
  algorithms?: string[];
  /** Accepted clock skew for exp/nbf, seconds (default 0). */
  clockToleranceSeconds?: number;
  /** Clock in milliseconds; tests inject one. */
  now?: () => number;
  /** Most JWKS fetches per minute (default 10); an unknown-kid flood beyond it is refused without a fetch. */
  jwksRequestsPerMinute?: number;
  /** How long fetched keys stay cached, ms (default 10 min). */
  jwksCacheMaxAgeMs?: number;
  /** Timeout of one JWKS fetch, ms (default 5000). */
  jwksTimeoutMs?: number;
  /**
   * Builtin mode: how many verified tokens are remembered until they expire, so a client that sends the same
   * token on every request pays for one signature check (default 2,000; 0 turns it off). External mode never
   * remembers: a key withdrawn from the JWKS must stop its tokens at once (ADR 0405).
   */
  verifiedCacheSize?: number;
}

/** The authenticated caller, built from a verified access token. */
export interface Principal {
  userId: string;
  email?: string;
  tenantId: string;
  roles: string[];
  scopes: string[];
  tokenId?: string;
}

/** Verifies bearer access tokens. */
export interface AccessTokenVerifier {
  /** Resolves the caller of a valid token; rejects with {@link InvalidTokenError} otherwise. */
  verify(token: string): Promise<Principal>;
}

/** 401 for a token that was presented but is not acceptable; `reason` is for logs, never for the client. */
export class InvalidTokenError extends UnauthorizedError {
  constructor(readonly reason: string) {
    super('The access token is invalid or expired', 'INVALID_TOKEN', 'Bearer error="invalid_token"');
  }
}

const BUILTIN_ALGS = ['HS256'];
const EXTERNAL_ALGS = ['RS256', 'ES256'];
const MAX_TOKEN_LENGTH = 8192;

/**
 * Creates the verifier every service uses for platform access tokens. The algorithm list is pinned per
 * mode before any key is looked up, so `alg: none` (in any casing) and HS256-signed-with-the-public-key
 * are refused; a `crit` header is refused (no extension is understood); iss, aud, exp and nbf are checked; `sub`,
 * `tenantId` and `roles` must be present. `sub` is an opaque string (external providers do not use UUIDs).
 */
export function createAccessTokenVerifier(cfg: AccessTokenVerifierConfig): AccessTokenVerifier {
  const allowed = pinAlgorithms(cfg);
  const keyFor =
    cfg.mode === 'builtin'
      ? builtinKey(cfg)
      : createJwksKeySource(cfg, (reason) => new InvalidTokenError(reason));
  const now = cfg.now ?? Date.now;
  const remembered =
    cfg.mode === 'builtin'
      ? new VerifiedTokens(cfg.verifiedCacheSize ?? 2000, (cfg.clockToleranceSeconds ?? 0) * 1000)
      : undefined;
  return {
    async verify(token: string): Promise<Principal> {
      if (typeof token !== 'string' || !token || token.length > MAX_TOKEN_LENGTH)
        throw new InvalidTokenError('malformed');
      const known = remembered?.get(token, now());
      if (known) return known;
      const decoded = jwt.decode(token, { complete: true });
      if (!decoded || typeof decoded.header !== 'object') throw new InvalidTokenError('malformed');
      const { alg, kid } = decoded.header;
      if (typeof alg !== 'string' || !allowed.includes(alg))
        throw new InvalidTokenError('algorithm not allowed');
      // RFC 7515 4.1.11: a recipient that does not understand every extension listed in `crit` must reject the
      // token. This verifier understands none, so any `crit` (even a malformed one) is refused (ADR 0006).
      if ('crit' in decoded.header) throw new InvalidTokenError('unsupported critical header parameter');
      const key = await keyFor(alg, kid);
      let payload: JwtPayload | string;
      try {
        payload = jwt.verify(token, key, {
          algorithms: [alg as Algorithm],
          issuer: cfg.issuer,
          audience: cfg.audience,
          clockTolerance: cfg.clockToleranceSeconds ?? 0,
          clockTimestamp: Math.floor(now() / 1000),
        });
      } catch (err) {
        throw new InvalidTokenError(err instanceof Error ? err.message : 'verification failed');
      }
      const principal = toPrincipal(payload);
      remembered?.set(token, principal, payload as JwtPayload);
      return principal;
    },
  };
}

/**
 * Builtin-mode tokens whose signature and claims were already checked, with the window in which they stay valid
 * (nbf to exp, with the clock tolerance). The key is the whole token, so only the exact bytes that verified hit.
 * Bounded: the oldest entry leaves first. Safe for HS256 because the secret is fixed for the process's life and
 * builtin tokens have no revocation list; a hit returns copies, so a caller cannot change the remembered one.
 */
class VerifiedTokens {
  private readonly entries = new Map<string, { principal: Principal; notBefore: number; expires: number }>();

  constructor(
    private readonly max: number,
    private readonly toleranceMs: number,
  ) {}

  get(token: string, nowMs: number): Principal | undefined {
    const e = this.entries.get(token);
    if (!e) return undefined;
    if (nowMs >= e.expires + this.toleranceMs || nowMs < e.notBefore - this.toleranceMs) {
      this.entries.delete(token);
      return undefined;
    }
    return { ...e.principal, roles: [...e.principal.roles], scopes: [...e.principal.scopes] };
  }

  set(token: string, principal: Principal, payload: JwtPayload): void {
    if (this.max <= 0 || typeof payload.exp !== 'number') return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    const notBefore = typeof payload.nbf === 'number' ? payload.nbf * 1000 : -Infinity;
    this.entries.set(token, {
      principal: { ...principal, roles: [...principal.roles], scopes: [...principal.scopes] },
      notBefore,
      expires: payload.exp * 1000,
    });
  }
}

function pinAlgorithms(cfg: AccessTokenVerifierConfig): string[] {
  const permitted = cfg.mode === 'builtin' ? BUILTIN_ALGS : EXTERNAL_ALGS;
  const wanted = cfg.algorithms?.length ? cfg.algorithms : permitted;
  const bad = wanted.filter((a) => !permitted.includes(a));
  if (bad.length)
    throw new Error(
      `Algorithms ${bad.join(', ')} are not allowed in ${cfg.mode} mode (allowed: ${permitted.join(', ')})`,
    );
  if (!cfg.issuer || !cfg.audience) throw new Error('The token verifier needs an issuer and an audience');
  return [...wanted];
}

/** Finds the verification key for a token's header. */
export type KeyLookup = (alg: string, kid: unknown) => Promise<KeyObject>;

function builtinKey(cfg: AccessTokenVerifierConfig): KeyLookup {
  if (!cfg.secret || Buffer.byteLength(cfg.secret, 'utf8') < 32)
    throw new Error('JWT_SECRET must be at least 32 bytes');
  // A KeyObject made once: given a string or Buffer, jsonwebtoken builds one on every verify (~2 ms).
  const secret = createSecretKey(Buffer.from(cfg.secret, 'utf8'));
  return async () => secret;
}

function toPrincipal(payload: JwtPayload | string): Principal {
  if (typeof payload !== 'object' || payload === null)
    throw new InvalidTokenError('payload is not an object');
  const { sub, email, tenantId, roles, jti, exp } = payload as Record<string, unknown>;
  if (typeof exp !== 'number') throw new InvalidTokenError('exp is required');
  if (typeof sub !== 'string' || !sub) throw new InvalidTokenError('sub is required');
  if (typeof tenantId !== 'string' || !tenantId) throw new InvalidTokenError('tenantId is required');
  if (!Array.isArray(roles) || !roles.every((r) => typeof r === 'string'))
    throw new InvalidTokenError('roles are required');
  return {
    userId: sub,
    ...(typeof email === 'string' ? { email } : {}),
    tenantId,
    roles: [...roles],
    scopes: rolesToScopes(roles),
    ...(typeof jti === 'string' ? { tokenId: jti } : {}),
  };
}
