import http from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { PROBLEM_CONTENT_TYPE } from '@care/contracts';
import { AppError, problemBody } from './errors';

/** Path of the Prometheus text exposition, the same on every service (platform-auth's actuator convention). */
export const PROMETHEUS_PATH = '/actuator/prometheus';
/** Path of the process-only liveness answer, the same on every service. */
export const LIVENESS_PATH = '/actuator/health/liveness';

/** Express handler answering the registry's metrics in the Prometheus text format. */
export function prometheusHandler(registry: Registry): RequestHandler {
  return (_req, res, next) => {
    registry.metrics().then((text) => {
      res.setHeader('Content-Type', registry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.send(text);
    }, next);
  };
}

/**
 * Liveness that asks only whether the process answers: a database or Redis blip must not make Kubernetes restart
 * every pod (readiness takes the replica out of traffic instead).
 */
export const livenessHandler: RequestHandler = (_req, res) => {
  res.setHeader('Cache-Control', 'no-store');
  res.json({ status: 'UP' });
};

/** Options of {@link startManagementServer}. */
export interface ManagementServerOptions {
  port: number;
  /** Interface to bind; default all (the pod IP, for the scraper). */
  host?: string;
  registry: Registry;
  logger: Logger;
}

/** The running management listener. */
export interface ManagementServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A second, minimal listener for operators (ADR 0012): `GET /actuator/prometheus` and `GET /actuator/health/liveness`,
 * nothing else. It is not behind the Service's main port nor an Ingress, so the NetworkPolicy alone decides who may
 * scrape (the monitoring namespace), and the public port never serves metrics in production.
 */
export function startManagementServer(options: ManagementServerOptions): Promise<ManagementServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === PROMETHEUS_PATH) {
      options.registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': options.registry.contentType, 'Cache-Control': 'no-store' });
          res.end(text);
        },
        (err: unknown) => {
          options.logger.error(
            { err: err instanceof Error ? err.message : String(err) },
            'metrics collection failed',
          );
          problem(res, new AppError('INTERNAL', 'Metrics could not be collected', 500), path);
        },
      );
      return;
    }
    if (req.method === 'GET' && path === LIVENESS_PATH) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end('{"status":"UP"}');
      return;
    }
    problem(
      res,
      new AppError('NOT_FOUND', 'The management port serves only metrics and liveness', 404),
      path,
    );
  });
  // Scrapes are short: do not let idle keep-alive sockets hold shutdown.
  server.keepAliveTimeout = 5000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      options.logger.info({ port }, 'management listener (metrics, liveness) ready');
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function problem(res: http.ServerResponse, err: AppError, path: string): void {
  res.writeHead(err.status, { 'Content-Type': PROBLEM_CONTENT_TYPE });
  res.end(JSON.stringify(problemBody(err, undefined, path)));
}
