import { Router, type RequestHandler } from 'express';
import { RelayTicketRequest } from '@care/contracts';
import {
  AppError,
  TooManyRequestsError,
  bearerAuth,
  validate,
  type Logger,
  callerOf,
  requestIdOf,
} from '@care/service-kit';
import type { AppDeps } from '../app';
import { rawQueryOf, readCallbackParameters } from './relay.query';
import { countRelay } from '../metrics/care-consult.metrics';

/** Headers on every relay response, errors included: nothing here may be cached or leak through a Referer. */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

/**
 * `/api/relay/*`. Mounted before the app-wide bearer check so that even a 401 carries the
 * relay headers; the ticket route therefore declares its own `bearerAuth`, with the app's verifier.
 * - `POST /api/relay/tickets` (bearer): body RelayTicketRequest -> 201 `{ticket, expires_at}`.
 * - `GET /api/relay/callback?code=&state=[&iss=]` (open): 302 to the ticket's callback with `code`, `state` and `iss`;
 *   for a provider's error response (`error=&error_description=&state=`) 302 with those (ADR 0504); a ticket that
 *   fails a check gets a 400 problem and no Location.
 */
export function relayRoutes(
  deps: Pick<AppDeps, 'verifier' | 'relayService' | 'relayLimiter' | 'consultMetrics'>,
): Router {
  const service = deps.relayService;
  const limiter = deps.relayLimiter;
  const routes = Router();
  routes.use('/api/relay', noStore);
  routes.post(
    '/api/relay/tickets',
    bearerAuth(deps.verifier),
    validate({ body: RelayTicketRequest }),
    async (req, res) => {
      const p = callerOf(req);
      const issued = await countRelay(deps.consultMetrics, 'issue', () =>
        service.issue({ userId: p.userId, tenantId: p.tenantId }, req.body as RelayTicketRequest, {
          requestId: requestIdOf(req),
        }),
      );
      res.status(201).json(issued);
    },
  );
  routes.get('/api/relay/callback', async (req, res) => {
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
  return routes;
}
