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
    res.on('finish', () => {
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : res.statusCode === 404 ? 'UNMATCHED' : req.baseUrl || 'UNMATCHED';
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      httpDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
    });
    next();
  };
  return { registry, httpDuration, middleware };
}
