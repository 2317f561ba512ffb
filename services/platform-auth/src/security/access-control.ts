import type { RequestHandler } from 'express';
import {
  AppError,
  ForbiddenError,
  readBearerToken,
  UnauthorizedError,
  type AccessTokenVerifier,
} from '@care/service-kit';
import { canonicalizePath } from './path-canonical';
import { compilePattern, matchesPattern } from './path-pattern';
import type { ScopeMap } from './scope-map';

/** Where the access rules get the current path-scope map (loaded from the database and cached). */
export interface ScopeMapSource {
  get(): Promise<ScopeMap>;
}

/** Options of {@link accessControl}. */
interface AccessControlOptions {
  verifier: AccessTokenVerifier;
  scopeMap: ScopeMapSource;
}

/**
 * Open paths (docs/platform-auth.md, Request pipeline, step 3): no authentication and no scope check. Endpoints
 * there that need a caller check the token. Plus the service's own OpenAPI document (ADR 0014): that one exact path.
 */
const OPEN_PATHS = ['/api/v1/auth/**', '/actuator/**', '/openapi.json'].map(compilePattern);
/** Chain-open areas (step 4): no 401 for anonymous callers, but the scope check still applies. */
const CHAIN_OPEN_PATHS = ['/api/v1/chat/**', '/api/v1/workflow/**', '/api/v1/kb/**'].map(compilePattern);

/**
 * The request pipeline (docs/platform-auth.md, Request pipeline; ADR 0102), in order: path firewall, JWT filter (security + tenant context on
 * `req.principal`), open paths (where a bad token is remembered in `res.locals.authError`, not fatal),
 * authentication required outside the chain-open areas, then the scope check
 * against the path-scope map (deny when no mapping). Missing or invalid token: 401 with
 * `WWW-Authenticate: Bearer`; authenticated without the scope, or no mapping: 403.
 */
export function accessControl(options: AccessControlOptions): RequestHandler {
  return (req, res, next) => {
    decide()
      .then(() => next())
      .catch(next);

    async function decide(): Promise<void> {
      const canonical = canonicalizePath(req.path);
      if (!canonical.ok)
        throw new AppError(
          'NON_CANONICAL_PATH',
          `The request path is not in canonical form (${canonical.reason})`,
          400,
        );
      const path = canonical.path;
      res.locals.canonicalPath = path;
      if (OPEN_PATHS.some((p) => matchesPattern(p, path))) {
        // Open paths must work with a stale token attached (a client refreshing after its access token expired):
        // a bad token is only remembered, for endpoints there that need a caller (`/auth/me`).
        try {
          const token = readBearerToken(req.headers.authorization);
          if (token !== undefined) req.principal = await options.verifier.verify(token);
        } catch (err) {
          res.locals.authError = err;
        }
        return;
      }
      const token = readBearerToken(req.headers.authorization);
      if (token !== undefined) req.principal = await options.verifier.verify(token);
      if (!req.principal && !CHAIN_OPEN_PATHS.some((p) => matchesPattern(p, path)))
        throw new UnauthorizedError();
      const mapping = (await options.scopeMap.get()).find(req.method, path);
      if (!mapping) throw new ForbiddenError('No access rule covers this request', 'NO_SCOPE_MAPPING');
      if (!req.principal?.scopes.includes(mapping.requiredScope)) {
        throw new ForbiddenError(`The scope ${mapping.requiredScope} is required`, 'INSUFFICIENT_SCOPE');
      }
    }
  };
}
