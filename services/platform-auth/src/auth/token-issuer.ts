import { createHash, createSecretKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** Settings of {@link TokenIssuer}. */
interface TokenIssuerOptions {
  secret: string;
  issuer: string;
  audience: string;
  accessTtlSeconds: number;
  clock: () => Date;
}

/** Who a token is for. */
interface TokenSubject {
  userId: string;
  email: string;
  tenantId: string;
  roles: string[];
}

/** Issues the builtin mode's HS256 access tokens. */
export class TokenIssuer {
  // Built once: jsonwebtoken would turn a string secret into a KeyObject on every call.
  private readonly key: KeyObject;

  constructor(private readonly opts: TokenIssuerOptions) {
    this.key = createSecretKey(Buffer.from(opts.secret, 'utf8'));
  }

  /** Claims sub, email, tenantId, roles, iat, exp plus iss, aud and jti (docs/platform-auth.md, Tokens). */
  accessToken(s: TokenSubject): string {
    const iat = Math.floor(this.opts.clock().getTime() / 1000);
    const payload = {
      sub: s.userId,
      email: s.email,
      tenantId: s.tenantId,
      roles: s.roles,
      iat,
      exp: iat + this.opts.accessTtlSeconds,
    };
    return jwt.sign(payload, this.key, {
      algorithm: 'HS256',
      issuer: this.opts.issuer,
      audience: this.opts.audience,
      jwtid: randomUUID(),
    });
  }
}

/**
 * A new refresh token: `<tenant id, base64url>.<32 random bytes, base64url>`. The tenant prefix lets a refresh
 * open the right tenant transaction; only the SHA-256 of the whole string is stored, so a changed prefix
 * simply finds nothing.
 */
export function newRefreshToken(tenantId: string): string {
  return `${Buffer.from(tenantId, 'utf8').toString('base64url')}.${randomBytes(32).toString('base64url')}`;
}

/** The tenant a refresh token names, or undefined when it is malformed. */
export function refreshTokenTenant(token: string): string | undefined {
  const m = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return undefined;
  const tenant = Buffer.from(m[1], 'base64url').toString('utf8');
  return /^[a-z0-9][a-z0-9-]{0,62}$/.test(tenant) ? tenant : undefined;
}

/** Storage form of a refresh token. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
