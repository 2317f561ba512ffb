import http from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { effectiveAcceptSockets, listenAcceptSockets, type AcceptSockets } from './accept-sockets';
import type { HealthRegistry } from './health';

/** Options of {@link startServer}. */
export interface StartServerOptions {
  app: Express;
  port: number;
  host?: string;
  logger: Logger;
  health?: HealthRegistry;
  /** Closed in order after the server stopped accepting and in-flight work drained (pools, timers). */
  onClose?: Array<() => Promise<void> | void>;
  /** Upper bound for finishing in-flight work after the listener closed, before the process exits anyway. */
  shutdownTimeoutMs?: number;
  /**
   * How long to keep serving after shutdown begins, with readiness already answering 503, so a load balancer
   * (Kubernetes endpoints) stops routing here before the listener closes (`SHUTDOWN_DRAIN_MS`, ADR 0007). Default 0.
   */
  drainMs?: number;
  /**
   * Listen sockets on the port (`SO_REUSEPORT`; ADR 0405): libuv accepts one connection per ready listen socket per
   * event-loop turn, so a busy loop drains one accept queue slowly; K sockets accept up to K per turn, all served by
   * this one process. Default 1. Above 1 needs Linux and Node >= 22.12 or >= 23.1, and is ignored in a node:cluster
   * worker, whose connections come from the primary (ADR 0406); either way with a warning.
   */
  acceptSockets?: number;
  /** Install SIGTERM/SIGINT handlers that exit the process (true in main, false in tests). */
  handleSignals?: boolean;
}

/** A running server with its shutdown. */
export interface RunningServer {
  server: http.Server;
  port: number;
  /** Listen sockets open on the port (1 unless `acceptSockets` took effect). */
  listeners: number;
  /** Connections each listen socket accepted so far; index 0 is the HTTP server's own. */
  readonly accepted: readonly number[];
  /** Registers a long-lived response (SSE) to be ended when shutdown begins; returns an unregister. */
  trackStream(end: () => void): () => void;
  /** Stops accepting, drains in-flight requests and streams, closes resources; idempotent. */
  shutdown(reason?: string): Promise<void>;
}

/**
 * Listens and wires graceful shutdown (ADR 0007): readiness goes OUT_OF_SERVICE at once; for `drainMs` the server
 * keeps serving (answering with `Connection: close`, so keep-alive clients reconnect); then the listener closes, idle keep-alive sockets are closed, open streams are asked to finish (they
 * write a final event), busy sockets get until the timeout, then resources close.
 */
export function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { app, logger } = options;
  const timeoutMs = options.shutdownTimeoutMs ?? 10000;
  const drainMs = options.drainMs ?? 0;
  const server = http.createServer(app);
  server.keepAliveTimeout = 65000;
  server.headersTimeout = 66000;
  const sockets = new Set<Socket>();
  const busy = new WeakMap<Socket, number>();
  const streams = new Set<() => void>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // Before the app's own listener, which may answer synchronously.
  server.prependListener('request', (req, res) => {
    if (draining) res.shouldKeepAlive = false;
    const s = req.socket;
    busy.set(s, (busy.get(s) ?? 0) + 1);
    res.on('finish', () => busy.set(s, (busy.get(s) ?? 1) - 1));
    res.on('close', () => {
      if (closing && !busy.get(s)) s.end();
    });
  });
  let draining = false;
  let closing = false;
  let done: Promise<void> | undefined;
  let listening: AcceptSockets | undefined;

  const shutdown = (reason = 'shutdown'): Promise<void> => {
    if (done) return done;
    draining = true;
    done = (async () => {
      logger.info({ reason, drainMs }, 'shutting down');
      options.health?.setDraining();
      // Idle keep-alive sockets are left open while draining: ending one could cut a request already on its way.
      if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
      closing = true;
      // Every listen socket closes (new connections are refused); resolves once their connections have ended.
      const closed = listening
        ? listening.close()
        : new Promise<void>((resolve) => server.close(() => resolve()));
      for (const end of streams) end();
      for (const s of sockets) if (!busy.get(s)) s.end();
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          logger.warn({ open: sockets.size }, 'shutdown timeout reached, closing remaining connections');
          for (const s of sockets) s.destroy();
          resolve();
        }, timeoutMs);
        timer.unref();
      });
      await Promise.race([closed, expired]);
      clearTimeout(timer);
      for (const close of options.onClose ?? []) {
        try {
          await close();
        } catch (err) {
          logger.error({ err }, 'error while closing a resource');
        }
      }
      logger.info('shutdown complete');
    })();
    return done;
  };

  if (options.handleSignals) {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) {
      process.once(sig, () => {
        const hard = setTimeout(() => process.exit(1), drainMs + timeoutMs + 2000);
        hard.unref();
        void shutdown(sig).then(() => process.exit(0));
      });
    }
  }

  return (async () => {
    const acceptSockets = effectiveAcceptSockets(options.acceptSockets ?? 1, logger);
    listening = await listenAcceptSockets(server, {
      port: options.port,
      host: options.host ?? '0.0.0.0',
      sockets: acceptSockets,
      logger,
    });
    const { port, accepted } = listening;
    logger.info({ port, acceptSockets }, 'listening');
    return {
      server,
      port,
      listeners: acceptSockets,
      accepted,
      trackStream(end: () => void) {
        streams.add(end);
        return () => streams.delete(end);
      },
      shutdown,
    };
  })();
}
