import client, { Registry } from 'prom-client';
import type { RequestHandler } from 'express';

/** Per-app Prometheus registry with default process metrics and the HTTP duration histogram. */
export interface Metrics {
  registry: Registry;
  httpDuration: client.Histogram<'method' | 'route' | 'status'>;
  /** Middleware timing every request by its matched route (not the raw path, to bound cardinality). */
  middleware: RequestHandler;
}

/** Creates a fresh registry (no global state: two apps in one process do not collide). */
export function createMetrics(serviceName: string, collectDefaults = true): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: serviceName });
  if (collectDefaults) client.collectDefaultMetrics({ register: registry });
  const httpDuration = new client.Histogram({
    name: 'http_server_requests_seconds',
    help: 'Duration of HTTP requests by method, matched route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const start = process.hrtime.bigint();
    // The matched route's full path is known only while its handlers run: once an error travels back out of nested
    // routers, Express has restored `req.baseUrl`, and a 400 would be labelled `/recall` instead of
    // `/api/v1/memory/recall`. Record the mount path at the moment the router assigns `req.route`.
    let matched: string | undefined;
    let route: unknown;
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => route,
      set: (value: { path?: unknown } | undefined) => {
        route = value;
        if (value?.path !== undefined) matched = `${req.baseUrl}${String(value.path)}`;
      },
    });
    res.on('finish', () => {
      const label = matched ?? (res.statusCode === 404 ? 'UNMATCHED' : req.baseUrl || 'UNMATCHED');
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      httpDuration.observe({ method: req.method, route: label, status: String(res.statusCode) }, seconds);
    });
    next();
  };
  return { registry, httpDuration, middleware };
}
