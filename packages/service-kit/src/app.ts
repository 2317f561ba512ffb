import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import helmet from 'helmet';
import cors from 'cors';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import { notFoundHandler, problemHandler } from './errors';
import { DEFAULT_MAX_JSON_DEPTH, jsonBodyVerifier, requestTargetGuard } from './input-guard';
import type { Metrics } from './metrics';

/** Options of {@link createServiceApp}. */
export interface ServiceAppOptions {
  logger: Logger;
  /** Allowed CORS origins; `['*']` allows any origin (dev default); empty disables CORS headers. */
  corsOrigins: string[];
  /** Limit of JSON bodies, e.g. `'1mb'`. */
  bodyLimit?: string;
  metrics?: Metrics;
  /** Headers CORS exposes to browsers beyond the safelisted ones. */
  exposedHeaders?: string[];
  /** Express `trust proxy` setting (hops or list); default: do not trust. */
  trustProxy?: boolean | number | string;
  /** Deepest nesting of a JSON body, checked before parsing (default {@link DEFAULT_MAX_JSON_DEPTH}). */
  maxJsonDepth?: number;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The common front of every service: request ids, access logs without query strings or bodies, helmet,
 * CORS, metrics, the request-target guard and a bounded JSON parser that checks depth, keys and escapes before
 * parsing (ADR 0005). Routes are mounted by the caller, then {@link finalizeApp}.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);
  app.use(
    pinoHttp({
      logger: options.logger,
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      // The query string can carry secrets (an OAuth code, a ticket): log the path only. The serializers get the
      // raw request and response (no wrapping): the wrapped form first builds pino's full request object, headers
      // and peer address included (a getpeername call), on every request, only for this to keep three fields.
      wrapSerializers: false,
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          path: req.url.split('?')[0],
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
      autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/actuator/health') },
    }),
  );
  app.use(helmet());
  if (options.corsOrigins.length) {
    const any = options.corsOrigins.includes('*');
    app.use(
      cors({
        origin: any ? true : options.corsOrigins,
        credentials: !any,
        exposedHeaders: [
          'X-Request-Id',
          'Retry-After',
          'WWW-Authenticate',
          ...(options.exposedHeaders ?? []),
        ],
        maxAge: 600,
      }),
    );
  }
  if (options.metrics) app.use(options.metrics.middleware);
  app.use(requestTargetGuard());
  app.use(
    express.json({
      limit: options.bodyLimit ?? '1mb',
      strict: true,
      verify: jsonBodyVerifier(options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH),
    }),
  );
  return app;
}

/** Adds the 404 handler and the problem+json error middleware; call after mounting routes. */
export function finalizeApp(app: Express): Express {
  app.use(notFoundHandler);
  app.use(problemHandler);
  return app;
}
