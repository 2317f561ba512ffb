import http from 'node:http';
import { createLogger, createServiceApp, finalizeApp, HealthRegistry, startServer } from '../src';

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
