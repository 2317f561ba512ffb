import { Writable } from 'node:stream';
import request from 'supertest';
import { Type } from '@care/contracts';
import {
  AppError,
  createLogger,
  createMetrics,
  createServiceApp,
  finalizeApp,
  TooManyRequestsError,
  validate,
} from '../src';

function captureLogs() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, logger: createLogger({ name: 'test', level: 'info', destination }) };
}

const Body = Type.Object(
  { name: Type.String({ minLength: 1 }), age: Type.Optional(Type.Integer()) },
  { additionalProperties: false },
);
const Query = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })) },
  { additionalProperties: false },
);

function buildApp() {
  const logs = captureLogs();
  const metrics = createMetrics('test', false);
  const app = createServiceApp({
    logger: logs.logger,
    corsOrigins: ['https://console.example'],
    bodyLimit: '1kb',
    metrics,
  });
  const writes: unknown[] = [];
  app.post('/things', validate({ body: Body }), (req, res) => {
    writes.push(req.body);
    res.status(201).json(req.body);
  });
  app.get('/things', validate({ query: Query }), (_req, res) => res.json(res.locals.query));
  app.get('/boom', () => {
    throw new Error('secret internals');
  });
  app.get('/slow-down', () => {
    throw new TooManyRequestsError(7.2);
  });
  app.get('/teapot', () => {
    throw new AppError('TEAPOT', 'short and stout', 418);
  });
  finalizeApp(app);
  return { app, writes, logs, metrics };
}

describe('createServiceApp', () => {
  it('answers a malformed JSON body with a 400 problem carrying the request id, and writes nothing', async () => {
    const { app, writes } = buildApp();
    const res = await request(app).post('/things').set('Content-Type', 'application/json').send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: 'MALFORMED_JSON', title: 'Bad Request' });
    expect(res.body.requestId).toBe(res.headers['x-request-id']);
    expect(writes).toHaveLength(0);
  });

  it('reports every validation issue with a JSON pointer, unknown fields included', async () => {
    const { app, writes } = buildApp();
    const res = await request(app).post('/things').send({ name: '', age: 'x', admin: true });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    const pointers = res.body.errors.map((e: { pointer: string }) => e.pointer).sort();
    expect(pointers).toEqual(['/admin', '/age', '/name']);
    expect(writes).toHaveLength(0);
  });

  it('requires a JSON body on a route with a body schema', async () => {
    const { app } = buildApp();
    const res = await request(app).post('/things').set('Content-Type', 'text/plain').send('name=x');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BODY_REQUIRED');
  });

  it('coerces and validates query parameters', async () => {
    const { app } = buildApp();
    expect((await request(app).get('/things?limit=3')).body).toEqual({ limit: 3 });
    const bad = await request(app).get('/things?limit=9');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].pointer).toBe('/query/limit');
  });

  it('rejects a body over the limit with 413', async () => {
    const { app } = buildApp();
    const res = await request(app)
      .post('/things')
      .send({ name: 'x'.repeat(5000) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('hides internals of unexpected errors and logs them as errors', async () => {
    const { app, logs } = buildApp();
    const res = await request(app).get('/boom');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('INTERNAL');
    expect(JSON.stringify(res.body)).not.toMatch(/secret internals|at .*\.ts/);
    expect(logs.lines.some((l) => l.includes('"level":50') && l.includes('secret internals'))).toBe(true);
  });

  it('sets Retry-After on 429 and keeps custom codes and statuses', async () => {
    const { app } = buildApp();
    const res = await request(app).get('/slow-down');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('8');
    const tea = await request(app).get('/teapot');
    expect(tea.status).toBe(418);
    expect(tea.body.code).toBe('TEAPOT');
  });

  it('answers unknown routes with a 404 problem', async () => {
    const { app } = buildApp();
    const res = await request(app).get('/nope');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ROUTE_NOT_FOUND');
  });

  it('marks every problem response no-store, from the front door to the last handler', async () => {
    const { app } = buildApp();
    const answers = await Promise.all([
      request(app).get('/nope'),
      request(app).get('/boom'),
      request(app).get('/things?limit=99'),
      request(app).get('/%E0%A4%A'),
      request(app).post('/things').set('content-type', 'application/json').send('{"name":'),
    ]);
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('keeps a well-formed incoming request id and replaces a hostile one', async () => {
    const { app } = buildApp();
    expect((await request(app).get('/nope').set('X-Request-Id', 'abc-123')).headers['x-request-id']).toBe(
      'abc-123',
    );
    const res = await request(app).get('/nope').set('X-Request-Id', 'bad id with spaces');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never logs query strings or authorization headers', async () => {
    const { app, logs } = buildApp();
    await request(app).get('/things?code=SECRET_CODE_123').set('Authorization', 'Bearer SECRET_TOKEN_456');
    const all = logs.lines.join('\n');
    expect(all).toContain('"path":"/things"');
    // The access line keeps exactly the request id, method and path, and the status code.
    const line = logs.lines.map((l) => JSON.parse(l)).find((l) => l.res);
    expect(line.req).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: 'GET',
      path: '/things',
    });
    expect(line.res).toEqual({ statusCode: 400 }); // `code` is not a declared query parameter
    expect(all).not.toContain('SECRET_CODE_123');
    expect(all).not.toContain('SECRET_TOKEN_456');
  });

  it('applies the configured CORS origins only', async () => {
    const { app } = buildApp();
    const ok = await request(app)
      .options('/things')
      .set('Origin', 'https://console.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(ok.headers['access-control-allow-origin']).toBe('https://console.example');
    const other = await request(app)
      .options('/things')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('records request durations by matched route, not raw path', async () => {
    const { app, metrics } = buildApp();
    await request(app).get('/things?limit=2');
    const text = await metrics.registry.metrics();
    expect(text).toMatch(
      /http_server_requests_seconds_count\{[^}]*route="\/things"[^}]*status="200"[^}]*\} 1/,
    );
  });
});
