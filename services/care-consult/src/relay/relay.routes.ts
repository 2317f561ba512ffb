import { Router, type RequestHandler } from 'express';
import { RelayTicketRequest } from '@care/contracts';
import { InMemoryNonceStore } from '@care/crypto';
import {
  AppError,
  TooManyRequestsError,
  bearerAuth,
  validate,
  type AccessTokenVerifier,
  type Logger,
} from '@care/service-kit';
import { principalOf, requestIdOf } from '../auth/auth.middleware';
import type { AuditInput } from '../audit/audit.service';
import type { AppConfig } from '../config';
import { relayKeysFromConfig, type RelayDeps } from './relay.deps';
import { rawQueryOf, readCallbackParameters } from './relay.query';
import { FixedWindowRateLimiter } from './relay.rate-limit';
import { RelayService } from './relay.service';
import { countRelay, type CareConsultMetrics } from '../metrics/care-consult.metrics';

/** What the relay router takes from the app's dependencies. `relay` defaults to config keys + in-process store. */
export interface RelayRouterDeps {
  config: AppConfig;
  logger: Logger;
  verifier: AccessTokenVerifier;
  audit: { record(input: AuditInput): Promise<void> };
  clock: () => Date;
  relay?: RelayDeps;
  consultMetrics?: CareConsultMetrics;
}

/** Headers on every relay response, errors included: nothing here may be cached or leak through a Referer. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

/**
 * `/relay/*` (relative to `/api`). Mounted before the app-wide bearer check so that even a 401 carries the
 * relay headers; the ticket route therefore declares its own `bearerAuth`, with the app's verifier.
 * - `POST /relay/tickets` (bearer): body RelayTicketRequest -> 201 `{ticket, expires_at}`.
 * - `GET /relay/callback?code=&state=[&iss=]` (open): 302 to the ticket's callback with `code`, `state` and `iss`;
 *   for a provider's error response (`error=&error_description=&state=`) 302 with those (ADR 0504); a ticket that
 *   fails a check gets a 400 problem and no Location.
 */
export function createRelayRouter(deps: RelayRouterDeps): Router {
  const { config } = deps;
  const relay = deps.relay ?? {
    keys: relayKeysFromConfig(config, deps.logger),
    nonceStore: new InMemoryNonceStore(),
  };
  const service = new RelayService({
    ...relay,
    companionScheme: config.RELAY_COMPANION_SCHEME,
    // A provider on the developer's machine (http://localhost...) is a dev setup only (ADR 0504).
    allowLoopbackHttpIssuer: config.APP_PROFILES_ACTIVE === 'dev',
    now: () => deps.clock().getTime(),
    audit: deps.audit,
    auditTenantId: config.RELAY_AUDIT_TENANT_ID,
    logger: deps.logger,
  });
  const limiter = new FixedWindowRateLimiter({
    limit: config.RELAY_CALLBACK_RATE_LIMIT,
    store: relay.rateCounters,
    // The nonce store shares the Redis and fails closed on its own: no redirect can happen while Redis is away.
    failOpen: true,
    now: () => deps.clock().getTime(),
  });

  const routes = Router();
  routes.use(noStore);
  routes.post('/tickets', bearerAuth(deps.verifier), validate({ body: RelayTicketRequest }), async (req, res) => {
    const p = principalOf(req);
    const issued = await countRelay(deps.consultMetrics, 'issue', () =>
      service.issue({ userId: p.userId, tenantId: p.tenantId }, req.body as RelayTicketRequest, {
        requestId: requestIdOf(req),
      }),
    );
    res.status(201).json(issued);
  });
  routes.get('/callback', async (req, res) => {
    // HEAD would burn the single-use ticket without the browser ever following the redirect (link previews do it).
    if (req.method === 'HEAD')
      throw new AppError('METHOD_NOT_ALLOWED', 'Use GET for the relay callback', 405, {
        headers: { Allow: 'GET' },
      });
    const rate = await limiter.take(req.ip ?? 'unknown');
    if (!rate.allowed)
      throw new TooManyRequestsError(
        rate.retryAfterSeconds,
        'Too many relay callbacks',
        'RELAY_RATE_LIMITED',
      );
    const params = readCallbackParameters(rawQueryOf(req.originalUrl));
    const target = await countRelay(deps.consultMetrics, 'resolve', () =>
      service.resolve(params, {
        requestId: requestIdOf(req),
        log: (req as { log?: Logger }).log,
      }),
    );
    res.status(302).setHeader('Location', target);
    res.setHeader('Content-Length', '0');
    res.end();
  });

  const router = Router();
  router.use('/relay', routes);
  return router;
}
