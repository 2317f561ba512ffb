import { randomUUID } from 'node:crypto';
import type { Database, TenantTx } from '@care/db';
import type { CallerView, LoginResponse, Static } from '@care/contracts';
import { AppError, TooManyRequestsError, UnauthorizedError, type Principal } from '@care/service-kit';
import type { AuthEvent } from '../audit/audit.repository';
import type { AuditTrail, ClientInfo } from '../audit/audit.service';
import { findDirectoryEntry, findUser, normaliseEmail } from '../users/users.repository';
import { assertPasswordLength, type PasswordHasher } from '../users/password-hasher';
import type { LoginThrottle } from './login-throttle';
import {
  consumeRefreshToken,
  findRefreshToken,
  insertRefreshToken,
  revokeFamily,
} from './refresh-token.repository';
import { hashRefreshToken, newRefreshToken, refreshTokenTenant, type TokenIssuer } from './token-issuer';
import type { AuthMetrics } from './auth.metrics';

/** Login and refresh answer. */
type TokenPair = LoginResponse;

/** Dependencies of {@link AuthService}. */
interface AuthServiceDeps {
  db: Database;
  hasher: PasswordHasher;
  throttle: LoginThrottle;
  issuer: TokenIssuer;
  audit: AuditTrail;
  metrics: AuthMetrics;
  clock: () => Date;
  refreshTtlSeconds: number;
}

// Never a valid tenant id or user id: keeps the unknown-email path doing the same queries as a known one.
const NO_TENANT = '-';
const NO_USER = '00000000-0000-0000-0000-000000000000';

const invalidCredentials = () =>
  new UnauthorizedError('The email or password is incorrect', 'INVALID_CREDENTIALS');
const invalidRefresh = () =>
  new UnauthorizedError('The refresh token is invalid, expired or revoked', 'INVALID_REFRESH_TOKEN');

/** Built-in authentication: login, refresh with rotation and reuse detection (ADR 0101), logout. */
export class AuthService {
  constructor(private readonly d: AuthServiceDeps) {}

  /** Stores a new refresh token of the family (plus, in the same transaction, an audit event) and signs the pair. */
  private async issue(
    user: { id: string; email: string; tenantId: string; roles: string[] },
    familyId: string,
    familyExpiresAt: Date,
    event?: AuthEvent,
  ): Promise<TokenPair> {
    const d = this.d;
    const refreshToken = newRefreshToken(user.tenantId);
    const now = d.clock();
    await d.db.withTenant(user.tenantId, async (tx) => {
      await insertRefreshToken(tx, {
        tenantId: user.tenantId,
        tokenHash: hashRefreshToken(refreshToken),
        familyId,
        userId: user.id,
        issuedAt: now,
        expiresAt: familyExpiresAt,
        usedAt: null,
        revokedAt: null,
      });
      if (event) await d.audit.record(event, tx);
    });
    const idToken = d.issuer.accessToken({
      userId: user.id,
      email: user.email,
      tenantId: user.tenantId,
      roles: user.roles,
    });
    return { idToken, refreshToken, tenantId: user.tenantId };
  }

  async login(rawEmail: string, password: string, client: ClientInfo): Promise<TokenPair> {
    const d = this.d;
    assertPasswordLength(password);
    const email = normaliseEmail(rawEmail);
    const wait = await d.throttle.retryAfter(email, client.ip);
    if (wait > 0) {
      d.metrics.login('throttled');
      await d.audit.record({ type: 'LOGIN_THROTTLED', email, ip: client.ip, requestId: client.requestId });
      throw new TooManyRequestsError(wait, 'Too many failed logins; try again later', 'LOGIN_THROTTLED');
    }
    const entry = await d.db.withSystem((tx) => findDirectoryEntry(tx, email));
    const user = await d.db.withTenant(entry?.tenantId ?? NO_TENANT, (tx) =>
      findUser(tx, entry?.userId ?? NO_USER),
    );
    const ok = await d.hasher.verify(password, user?.passwordHash);
    if (!user || !ok) {
      await d.throttle.recordFailure(email, client.ip);
      d.metrics.login('failure');
      await d.audit.record({
        type: 'LOGIN_FAILED',
        tenantId: user?.tenantId ?? null,
        userId: user?.id ?? null,
        email,
        ip: client.ip,
        requestId: client.requestId,
        detail: { reason: user ? 'bad_password' : 'unknown_email' },
      });
      throw invalidCredentials();
    }
    await d.throttle.recordSuccess(email);
    const succeeded: AuthEvent = {
      type: 'LOGIN_SUCCEEDED',
      tenantId: user.tenantId,
      userId: user.id,
      email,
      ip: client.ip,
      requestId: client.requestId,
    };
    const pair = await this.issue(
      user,
      randomUUID(),
      new Date(d.clock().getTime() + d.refreshTtlSeconds * 1000),
      succeeded,
    );
    d.metrics.login('success');
    return pair;
  }

  async refresh(token: string, client: ClientInfo): Promise<TokenPair> {
    const d = this.d;
    const tenantId = refreshTokenTenant(token);
    if (!tenantId) throw invalidRefresh();
    const hash = hashRefreshToken(token);
    const now = d.clock();
    const outcome = await d.db.withTenant(tenantId, async (tx) => {
      const consumed = await consumeRefreshToken(tx, hash, now);
      if (consumed) {
        const user = await findUser(tx, consumed.userId);
        if (!user) {
          await revokeFamily(tx, consumed.familyId, now);
          return { kind: 'gone' as const };
        }
        return { kind: 'ok' as const, user, familyId: consumed.familyId, expiresAt: consumed.expiresAt };
      }
      const existing = await findRefreshToken(tx, hash);
      if (existing?.usedAt) {
        // Reuse of a rotated token: someone holds a copy. Revoke the whole family and commit that.
        await this.endFamily(tx, 'REFRESH_REUSED', existing, now, client);
        return { kind: 'reused' as const };
      }
      return { kind: 'invalid' as const };
    });
    if (outcome.kind !== 'ok') {
      d.metrics.refresh(outcome.kind);
      throw invalidRefresh();
    }
    const pair = await this.issue(outcome.user, outcome.familyId, outcome.expiresAt);
    d.metrics.refresh('success');
    return pair;
  }

  async logout(token: string, client: ClientInfo): Promise<void> {
    const d = this.d;
    const tenantId = refreshTokenTenant(token);
    if (!tenantId) return;
    const hash = hashRefreshToken(token);
    await d.db.withTenant(tenantId, async (tx) => {
      const existing = await findRefreshToken(tx, hash);
      if (!existing) return;
      await this.endFamily(tx, 'LOGOUT', existing, d.clock(), client);
    });
  }

  /** Revokes the token's whole family and audits why, in the same tenant transaction. */
  private async endFamily(
    tx: TenantTx,
    type: 'REFRESH_REUSED' | 'LOGOUT',
    token: { familyId: string; userId: string },
    now: Date,
    client: ClientInfo,
  ): Promise<void> {
    const revoked = await revokeFamily(tx, token.familyId, now);
    await this.d.audit.record(
      {
        type,
        tenantId: tx.tenantId,
        userId: token.userId,
        ip: client.ip,
        requestId: client.requestId,
        detail: { familyId: token.familyId, revoked },
      },
      tx,
    );
  }
}

/** The `/auth/me` view of a verified principal. */
export function describePrincipal(p: Principal): Static<typeof CallerView> {
  return { userId: p.userId, email: p.email ?? null, tenantId: p.tenantId, roles: p.roles, scopes: p.scopes };
}

/** 404 for the built-in endpoints when an external identity provider is configured. */
export function builtinDisabled(): AppError {
  return new AppError(
    'BUILTIN_AUTH_DISABLED',
    'Login, refresh and logout are handled by the external identity provider',
    404,
  );
}
