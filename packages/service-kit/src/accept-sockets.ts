import cluster from 'node:cluster';
import net from 'node:net';
import type { Logger } from 'pino';

/**
 * Several listen sockets on one port (ADR 0405, issue 22). libuv accepts one connection per readiness of a listen
 * socket per event-loop turn, so under load the kernel's accept queue drains at one connection per turn. With
 * `SO_REUSEPORT` the kernel spreads new connections over K sockets bound to the same port, each of which becomes
 * ready on its own: up to K accepts per turn, all on the one loop. The extra sockets are `net.Server`s that hand each
 * connection to the HTTP server (`emit('connection')`), so it is served exactly as one the HTTP server accepted.
 */

/** Whether `listen({ reusePort: true })` works here: Linux, Node >= 22.12 (22.x) or >= 23.1. */
export function reusePortSupported(
  platform: string = process.platform,
  nodeVersion: string = process.versions.node,
): boolean {
  if (platform !== 'linux') return false;
  const [major = 0, minor = 0] = nodeVersion.split('.').map(Number);
  if (major === 22) return minor >= 12;
  if (major === 23) return minor >= 1;
  return major > 23;
}

/**
 * The number of listen sockets to open for a requested `acceptSockets`: the request when it is above 1 and this
 * process can open them, else 1 with one warning saying why.
 */
export function effectiveAcceptSockets(
  requested: number,
  logger: Pick<Logger, 'warn'>,
  env: { platform?: string; nodeVersion?: string; clusterWorker?: boolean } = {},
): number {
  if (!Number.isInteger(requested) || requested < 1) {
    throw new RangeError(`acceptSockets must be an integer >= 1, got ${requested}`);
  }
  if (requested === 1) return 1;
  if (env.clusterWorker ?? cluster.isWorker) {
    // The primary owns the listen socket and passes connections to the workers (ADR 0406).
    logger.warn({ acceptSockets: requested }, 'acceptSockets ignored in a node:cluster worker; using 1');
    return 1;
  }
  if (!reusePortSupported(env.platform, env.nodeVersion)) {
    logger.warn(
      {
        acceptSockets: requested,
        platform: env.platform ?? process.platform,
        node: env.nodeVersion ?? process.versions.node,
      },
      'acceptSockets > 1 needs SO_REUSEPORT (Linux, Node >= 22.12 or >= 23.1); using 1',
    );
    return 1;
  }
  return requested;
}

/** What {@link listenAcceptSockets} opened. */
export interface AcceptSockets {
  /** The port every listener is bound to. */
  port: number;
  /** Connections each listen socket accepted so far; index 0 is the HTTP server's own. Length = listen sockets. */
  readonly accepted: readonly number[];
  /** Closes every listen socket; resolves once each has closed and the connections it accepted have ended. */
  close(): Promise<void>;
}

/** Options of {@link listenAcceptSockets}. */
export interface ListenAcceptSocketsOptions {
  port: number;
  host: string;
  backlog?: number;
  /** Listen sockets on the port, already checked by {@link effectiveAcceptSockets}. */
  sockets: number;
  logger: Pick<Logger, 'error'>;
}

type ReusePortListenOptions = net.ListenOptions & { reusePort?: boolean };

function listenOn(server: net.Server, options: ReusePortListenOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (err: Error) => reject(err);
    server.once('error', failed);
    server.listen(options, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

function closeListener(server: net.Server): Promise<void> {
  // The callback runs once the socket is closed and the connections it accepted have ended (on a server already
  // closed it gets ERR_SERVER_NOT_RUNNING, which changes nothing here).
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Listens `server` (an HTTP server) on host/port and, when `sockets` > 1, opens `sockets - 1` more listen sockets on
 * the same port with `reusePort`, handing their connections to `server`. Port 0: the first socket picks the port.
 */
export async function listenAcceptSockets(
  server: net.Server,
  options: ListenAcceptSocketsOptions,
): Promise<AcceptSockets> {
  const reusePort = options.sockets > 1;
  const accepted = [0];
  let handingOver = false;
  // Before any other listener: connections handed over by the extra sockets arrive through the same event.
  server.prependListener('connection', () => {
    if (!handingOver) accepted[0]++;
  });
  const listen = (s: net.Server, port: number) =>
    listenOn(s, { port, host: options.host, backlog: options.backlog, reusePort });
  await listen(server, options.port);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const extra: net.Server[] = [];
  try {
    for (let k = 1; k < options.sockets; k++) {
      const index = k;
      accepted.push(0);
      // An HTTP server turns Nagle off on the sockets it accepts; these sockets get the same.
      const listener = net.createServer({ noDelay: true }, (socket) => {
        accepted[index]++;
        handingOver = true;
        try {
          server.emit('connection', socket);
        } finally {
          handingOver = false;
        }
      });
      // Each listen socket counts its own connections against the limit.
      if (Number.isFinite(server.maxConnections)) listener.maxConnections = server.maxConnections;
      listener.on('error', (err) => options.logger.error({ err, listener: index }, 'accept socket error'));
      extra.push(listener);
      await listen(listener, port);
    }
  } catch (err) {
    await Promise.all([server, ...extra].map(closeListener));
    throw err;
  }
  return {
    port,
    accepted,
    async close() {
      await Promise.all([server, ...extra].map(closeListener));
    },
  };
}
