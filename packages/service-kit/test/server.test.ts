import http from 'node:http';
import net from 'node:net';
import {
  createLogger,
  createServiceApp,
  effectiveAcceptSockets,
  finalizeApp,
  HealthRegistry,
  reusePortSupported,
  startServer,
} from '../src';

const silent = createLogger({ name: 'test', level: 'silent' });

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('startServer graceful shutdown', () => {
  it('finishes an in-flight request, ends open streams, refuses new connections and closes resources', async () => {
    const app = createServiceApp({ logger: silent, corsOrigins: [] });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // Shutdown must start only once both requests are in flight, however slow the machine is.
    let arrived = 0;
    let bothArrived!: () => void;
    const inFlight = new Promise<void>((r) => (bothArrived = r));
    const arrive = () => {
      if (++arrived === 2) bothArrived();
    };
    app.get('/slow', async (_req, res) => {
      arrive();
      await gate;
      res.json({ finished: true });
    });
    const ref: { running?: Awaited<ReturnType<typeof startServer>> } = {};
    app.get('/stream', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('event: message\ndata: {}\n\n');
      const untrack = ref.running!.trackStream(() => {
        res.end('event: done\ndata: [DONE]\n\n');
      });
      res.on('close', untrack);
      arrive();
    });
    finalizeApp(app);
    const health = new HealthRegistry();
    const closed: string[] = [];
    const running = await startServer({
      app,
      port: 0,
      host: '127.0.0.1',
      logger: silent,
      health,
      onClose: [() => void closed.push('pool')],
      shutdownTimeoutMs: 3000,
    });
    ref.running = running;
    const slow = get(running.port, '/slow');
    const stream = get(running.port, '/stream');
    await inFlight;
    const stopping = running.shutdown('test');
    expect((await health.readiness()).status).toBe('OUT_OF_SERVICE');
    await expect(get(running.port, '/slow')).rejects.toThrow();
    release();
    expect(await slow).toEqual({ status: 200, body: '{"finished":true}' });
    expect((await stream).body).toContain('data: [DONE]');
    await stopping;
    expect(closed).toEqual(['pool']);
  });

  it('keeps serving through the drain window with readiness already down, then stops accepting', async () => {
    const app = createServiceApp({ logger: silent, corsOrigins: [] });
    app.get('/ping', (_req, res) => res.json({ ok: true }));
    finalizeApp(app);
    const health = new HealthRegistry();
    const running = await startServer({
      app,
      port: 0,
      host: '127.0.0.1',
      logger: silent,
      health,
      drainMs: 600,
      shutdownTimeoutMs: 1000,
    });
    const keepAlive = new http.Agent({ keepAlive: true });
    const viaAgent = (path: string) =>
      new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: running.port, path, agent: keepAlive }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          })
          .on('error', reject);
      });
    expect((await viaAgent('/ping')).connection).toBe('keep-alive');
    const t0 = Date.now();
    const stopping = running.shutdown('test');
    expect((await health.readiness()).status).toBe('OUT_OF_SERVICE');
    const during: number[] = [];
    while (Date.now() - t0 < 450) {
      const r = await viaAgent('/ping');
      during.push(r.status);
      expect(r.connection).toBe('close');
      await new Promise((r2) => setTimeout(r2, 20));
    }
    expect(during.length).toBeGreaterThan(5);
    expect(during.every((s) => s === 200)).toBe(true);
    await stopping;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(600);
    await expect(get(running.port, '/ping')).rejects.toThrow();
    keepAlive.destroy();
  });

  it('destroys connections still busy when the timeout is reached', async () => {
    const app = createServiceApp({ logger: silent, corsOrigins: [] });
    app.get('/hang', () => undefined);
    const running = await startServer({
      app,
      port: 0,
      host: '127.0.0.1',
      logger: silent,
      shutdownTimeoutMs: 200,
    });
    const hang = get(running.port, '/hang').catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    await running.shutdown();
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(await hang).toMatchObject({ code: 'ECONNRESET' });
  });
});

/** An app answering GET /ping. */
function pingApp() {
  const app = createServiceApp({ logger: silent, corsOrigins: [] });
  app.get('/ping', (_req, res) => res.json({ ok: true }));
  finalizeApp(app);
  return app;
}

/** Resolves with the connect error's code, or 'connected'. */
function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

describe('reusePortSupported', () => {
  it('needs Linux and Node >= 22.12 or >= 23.1', () => {
    expect(reusePortSupported('linux', '22.12.0')).toBe(true);
    expect(reusePortSupported('linux', '22.23.3')).toBe(true);
    expect(reusePortSupported('linux', '22.11.0')).toBe(false);
    expect(reusePortSupported('linux', '23.0.0')).toBe(false);
    expect(reusePortSupported('linux', '23.1.0')).toBe(true);
    expect(reusePortSupported('linux', '24.0.0')).toBe(true);
    expect(reusePortSupported('linux', '20.20.2')).toBe(false);
    expect(reusePortSupported('darwin', '24.0.0')).toBe(false);
    expect(reusePortSupported('win32', '24.0.0')).toBe(false);
  });
});

describe('effectiveAcceptSockets', () => {
  const supported = { platform: 'linux', nodeVersion: '22.12.0', clusterWorker: false };

  it('keeps the request where SO_REUSEPORT works, silently', () => {
    const warn = jest.fn();
    expect(effectiveAcceptSockets(1, { warn }, supported)).toBe(1);
    expect(effectiveAcceptSockets(4, { warn }, supported)).toBe(4);
    expect(warn).not.toHaveBeenCalled();
  });

  it('falls back to 1 with one warning on an unsupported platform or Node', () => {
    for (const env of [
      { ...supported, platform: 'darwin' },
      { ...supported, nodeVersion: '20.20.2' },
    ]) {
      const warn = jest.fn();
      expect(effectiveAcceptSockets(8, { warn }, env)).toBe(1);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][1]).toMatch(/SO_REUSEPORT/);
    }
  });

  it('is ignored with a warning in a node:cluster worker, whose primary owns the listen socket', () => {
    const warn = jest.fn();
    expect(effectiveAcceptSockets(4, { warn }, { ...supported, clusterWorker: true })).toBe(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][1]).toMatch(/cluster worker/);
  });

  it('refuses a count below 1 or not an integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => effectiveAcceptSockets(bad, { warn: jest.fn() }, supported)).toThrow(RangeError);
    }
  });
});

// The socket option exists only on Linux with Node >= 22.12 / 23.1; elsewhere startServer falls back to 1 (above).
const onReusePort = reusePortSupported() ? describe : describe.skip;

onReusePort('startServer with acceptSockets', () => {
  it('serves connections through every listen socket, then refuses connections once shut down', async () => {
    const running = await startServer({
      app: pingApp(),
      port: 0,
      host: '127.0.0.1',
      logger: silent,
      acceptSockets: 4,
    });
    expect(running.listeners).toBe(4);
    // 60 connections (no keep-alive): the kernel spreads them over the four sockets by source port.
    const replies = await Promise.all(Array.from({ length: 60 }, () => get(running.port, '/ping')));
    expect(replies.every((r) => r.status === 200 && r.body === '{"ok":true}')).toBe(true);
    expect(running.accepted).toHaveLength(4);
    expect(running.accepted.reduce((a, b) => a + b, 0)).toBe(60);
    for (const n of running.accepted) expect(n).toBeGreaterThanOrEqual(1);
    await running.shutdown('test');
    // A socket left open would still take its share of the connections.
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => connectOutcome(running.port)));
    expect(new Set(outcomes)).toEqual(new Set(['ECONNREFUSED']));
  });

  it('drains requests in flight on every listen socket before shutdown resolves', async () => {
    const app = createServiceApp({ logger: silent, corsOrigins: [] });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const total = 16;
    let arrived = 0;
    let allArrived!: () => void;
    const inFlight = new Promise<void>((r) => (allArrived = r));
    app.get('/slow', async (_req, res) => {
      if (++arrived === total) allArrived();
      await gate;
      res.json({ finished: true });
    });
    finalizeApp(app);
    const closed: string[] = [];
    const running = await startServer({
      app,
      port: 0,
      host: '127.0.0.1',
      logger: silent,
      acceptSockets: 4,
      shutdownTimeoutMs: 5000,
      onClose: [() => void closed.push('pool')],
    });
    const slow = Array.from({ length: total }, () => get(running.port, '/slow'));
    await inFlight;
    // Some of the requests came through the extra sockets (16 connections over 4 sockets).
    expect(running.accepted.slice(1).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    let finished = false;
    const stopping = running.shutdown('test').then(() => (finished = true));
    expect(await connectOutcome(running.port)).toBe('ECONNREFUSED');
    await new Promise((r) => setTimeout(r, 100));
    expect(finished).toBe(false);
    expect(closed).toEqual([]);
    release();
    for (const reply of await Promise.all(slow))
      expect(reply).toEqual({ status: 200, body: '{"finished":true}' });
    await stopping;
    expect(closed).toEqual(['pool']);
  });

  it('with the default of one socket behaves as before: no reusePort, one listener', async () => {
    const running = await startServer({ app: pingApp(), port: 0, host: '127.0.0.1', logger: silent });
    expect(running.listeners).toBe(1);
    // Without SO_REUSEPORT on the first socket, nothing else can bind the port.
    const intruder = net.createServer();
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      intruder.once('error', resolve);
      intruder.listen({ port: running.port, host: '127.0.0.1', reusePort: true } as net.ListenOptions, () =>
        resolve(undefined),
      );
    });
    intruder.close();
    expect(error?.code).toBe('EADDRINUSE');
    await get(running.port, '/ping');
    expect(running.accepted).toEqual([1]);
    await running.shutdown('test');
  });
});
