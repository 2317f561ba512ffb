import http from 'node:http';
import request from 'supertest';
import { aUser, bearer, seedUser, type TestUser } from './builders/user.builder';
import { startServer, createLogger } from '@care/service-kit';
import type { StreamRegistry } from '../src/chat/chat.service';
import { buildApp, openTestDb, type TestApp, type TestDb } from './support/harness';
import { serve } from './support/raw-http';

describe('/api/v1/chat forwarding to care-consult', () => {
  let t: TestDb;
  let h: TestApp;
  let user: TestUser, viewer: TestUser;
  let upstream: { port: number; close(): Promise<void> };
  let proxy: { port: number; close(): Promise<void> };
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  let release: () => void = () => undefined;
  let upstreamClosed: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    t = await openTestDb();
    upstream = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        if (req.url?.startsWith('/api/chat/missing')) {
          res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"code":"NOT_FOUND"}');
          return;
        }
        if (req.url?.startsWith('/api/chat/hang')) {
          upstreamClosed = new Promise((r) => res.on('close', () => r()));
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('event: message\ndata: {}\n\n');
          return;
        }
        // SSE: the first frame, then nothing until the test has seen it arrive through the proxy.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write('event: message\ndata: {"id":"m1"}\n\n');
        new Promise<void>((r) => (release = r)).then(() => {
          res.write('event: token\ndata: {"text":"hi"}\n\n');
          res.end('event: done\ndata: {}\n\n');
        });
      });
    });
    h = buildApp(t.db, { CARE_CONSULT_URL: `http://127.0.0.1:${upstream.port}` });
    user = await seedUser(t.db, h.hasher, aUser().withRole('USER').build());
    viewer = await seedUser(t.db, h.hasher, aUser().withRole('VIEWER').build());
    proxy = await serve(h.app);
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
    await t.close();
  });

  it('streams SSE frames as they come: the first frame arrives before the upstream has finished', async () => {
    const frames: string[] = [];
    const authorization = bearer(user);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          port: proxy.port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/api/v1/chat?stream=1',
          headers: { authorization, 'content-type': 'application/json', 'x-request-id': 'req-chat-1' },
        },
        (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            frames.push(chunk);
            // Only an unbuffered proxy delivers this before the upstream is allowed to finish.
            if (frames.length === 1) release();
          });
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.setTimeout(5000, () => req.destroy(new Error('the proxy held the stream back')));
      req.on('error', reject);
      req.end(JSON.stringify({ message: 'hello', agent_id: 'triage' }));
    });
    expect(status).toBe(200);
    expect(frames[0]).toBe('event: message\ndata: {"id":"m1"}\n\n');
    expect(frames.join('')).toContain('event: done');
    const call = seen.find((s) => s.url === '/api/chat?stream=1')!;
    expect(call.method).toBe('POST');
    expect(call.headers.authorization).toBe(authorization);
    expect(call.headers['x-request-id']).toBe('req-chat-1');
    expect(JSON.parse(call.body)).toEqual({ message: 'hello', agent_id: 'triage' });
  });

  it('maps sub-paths and passes upstream statuses through; GET needs only chat:read', async () => {
    const res = await request(h.app).get('/api/v1/chat/missing/t1').set('Authorization', bearer(viewer));
    expect(res.status).toBe(404);
    expect(seen.some((s) => s.url === '/api/chat/missing/t1')).toBe(true);
    expect(
      (await request(h.app).post('/api/v1/chat').set('Authorization', bearer(viewer)).send({ message: 'x' }))
        .status,
    ).toBe(403);
  });

  it('answers 502 problem+json when care-consult is unreachable', async () => {
    const down = buildApp(t.db, { CARE_CONSULT_URL: 'http://127.0.0.1:1' });
    const res = await request(down.app)
      .post('/api/v1/chat')
      .set('Authorization', bearer(user))
      .send({ message: 'x' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('ends open streams cleanly when the server shuts down', async () => {
    const streams: StreamRegistry = {};
    const tracked = buildApp(t.db, { CARE_CONSULT_URL: `http://127.0.0.1:${upstream.port}` }, { streams });
    const running = await startServer({
      app: tracked.app,
      port: 0,
      host: '127.0.0.1',
      logger: createLogger({ name: 't', level: 'silent' }),
      shutdownTimeoutMs: 10000,
    });
    streams.track = running.trackStream;
    const started = Date.now();
    const ended = await new Promise<string>((resolve) => {
      const req = http.request(
        {
          port: running.port,
          host: '127.0.0.1',
          method: 'GET',
          path: '/api/v1/chat/hang',
          headers: { authorization: bearer(user) },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => {
            body += c;
            if (!body.includes('done')) void running.shutdown('test');
          });
          res.on('end', () => resolve(body));
        },
      );
      req.end();
    });
    expect(ended).toContain('event: message');
    // Well before the 10 s drain bound: the stream was ended, not cut at the timeout.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('cancels the upstream request when the client goes away', async () => {
    await new Promise<void>((resolve) => {
      const req = http.request(
        {
          port: proxy.port,
          host: '127.0.0.1',
          method: 'GET',
          path: '/api/v1/chat/hang',
          headers: { authorization: bearer(user) },
        },
        (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.end();
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise((r) => (timer = setTimeout(() => r('still open'), 3000)));
    await expect(Promise.race([upstreamClosed.then(() => 'closed'), deadline])).resolves.toBe('closed');
    clearTimeout(timer);
  });

  it('answers JSON nested 10,000 deep with a 400 problem before parsing, and forwards nothing', async () => {
    const before = seen.length;
    for (const body of [
      '['.repeat(10_000) + ']'.repeat(10_000),
      '{"messages":' + '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_001),
    ]) {
      const res = await request(h.app)
        .post('/api/v1/chat')
        .set('Authorization', bearer(user))
        .set('Content-Type', 'application/json')
        .send(body);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('JSON_TOO_DEEP');
    }
    expect(seen.length).toBe(before);
  });

  it("applies the tenant setting chat.allowClinical when the request does not set allow_clinical; the request's own value wins", async () => {
    const admin = await seedUser(
      t.db,
      h.hasher,
      aUser().withRole('TENANT_ADMIN').inTenant(user.tenantId).build(),
    );
    const patch = await request(h.app)
      .patch('/api/v1/config')
      .set('Authorization', bearer(admin))
      .send({ settings: { 'chat.allowClinical': true } });
    expect(patch.status).toBe(200);
    const send = async (body: Record<string, unknown>) => {
      const before = seen.length;
      const pending = request(h.app)
        .post('/api/v1/chat')
        .set('Authorization', bearer(user))
        .send(body)
        .then((r) => r);
      while (seen.length === before) await new Promise((r) => setTimeout(r, 10));
      release();
      await pending;
      return JSON.parse(seen[seen.length - 1].body);
    };
    const messages = [{ role: 'user', content: 'hi' }];
    expect(await send({ messages })).toEqual({ messages, allow_clinical: true });
    expect(await send({ messages, allow_clinical: false })).toEqual({ messages, allow_clinical: false });
    await request(h.app)
      .patch('/api/v1/config')
      .set('Authorization', bearer(admin))
      .send({ settings: { 'chat.allowClinical': null } })
      .expect(200);
    expect(await send({ messages })).toEqual({ messages });
  });
});
