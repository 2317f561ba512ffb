import request from 'supertest';
import type { Database } from '@care/db';
import { checkDocumentedResponse, openOperations } from '@care/contracts';
import { createMetrics, listRoutes } from '@care/service-kit';
import { compareRoutes, lintOpenApi } from '@care/service-kit/testing';
import { buildApp, openTestDatabase } from './support/test-app';

type Doc = Record<string, unknown> & { paths: Record<string, Record<string, { security?: unknown[] }>> };

let database: Database;
let app: ReturnType<typeof buildApp>['app'];
let doc: Doc;
const KEY = { 'X-API-Key': 'doc-key-of-sixteen-chars', 'X-Tenant-Id': 'doc-partition' };

beforeAll(async () => {
  database = await openTestDatabase();
  app = buildApp(database, { env: { API_KEY: 'doc-key-of-sixteen-chars' } }).app;
  const res = await request(app).get('/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body as Doc;
});
afterAll(async () => {
  await database?.close();
});

describe('GET /openapi.json (memory)', () => {
  it('is served without the API key as an OpenAPI 3.1 document; other paths still need it', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((doc.info as { version: string }).version).toBe('9.9.9-test');
    expect((await request(app).get('/api/v1/memory/status')).status).toBe(401);
    expect((await request(app).get('/openapi.yaml')).status).toBe(401);
  });

  it('passes redocly lint (recommended rules, repo redocly.yaml) without errors or warnings', async () => {
    const result = await lintOpenApi(doc);
    expect(result.problems).toEqual([]);
    expect(result.errors + result.warnings).toBe(0);
  }, 120_000);

  it('documents every mounted route and nothing that is not mounted, with and without the prometheus route', async () => {
    expect(compareRoutes(listRoutes(app), doc)).toEqual({ undocumented: [], unmounted: [] });
    const dev = buildApp(database, {
      env: { APP_PROFILES_ACTIVE: 'dev' },
      metrics: createMetrics('memory-doc-test'),
    }).app;
    const devDoc = (await request(dev).get('/openapi.json')).body as Doc;
    expect(Object.keys(devDoc.paths)).toContain('/actuator/prometheus');
    expect(compareRoutes(listRoutes(dev), devDoc)).toEqual({ undocumented: [], unmounted: [] });
    expect(Object.keys(doc.paths)).not.toContain('/actuator/prometheus');
  });

  it('the comparison fails for a missing operation or a documented one that is not mounted', () => {
    const trimmed = { ...doc, paths: { ...doc.paths } };
    delete trimmed.paths['/api/v1/memory/why-not'];
    expect(compareRoutes(listRoutes(app), trimmed).undocumented).toEqual(['POST /api/v1/memory/why-not']);
    const extra = { ...doc, paths: { ...doc.paths, '/api/v1/memory/{id}/pin': { post: {} } } };
    expect(compareRoutes(listRoutes(app), extra).unmounted).toEqual(['POST /api/v1/memory/:id/pin']);
  });

  it('marks the probes, the document and the configured exempt paths as open', () => {
    expect(openOperations(doc)).toEqual([
      'GET /actuator/health/liveness',
      'GET /api/v1/system/health',
      'GET /openapi.json',
    ]);
  });

  describe('real responses match the documented schemas', () => {
    const expectDocumented = (method: string, path: string, res: request.Response) => {
      const type = String(res.headers['content-type'] ?? '').split(';')[0];
      const call = `${method} ${path} ${res.status}`;
      expect({
        call,
        issues: checkDocumentedResponse(doc, method, path, res.status, res.body, type),
      }).toEqual({ call, issues: [] });
    };
    const send = (method: 'get' | 'post' | 'delete', path: string, body?: unknown) => {
      const r = request(app)[method](path).set(KEY);
      return body === undefined ? r : r.send(body as object);
    };

    it('system: status, health, metrics', async () => {
      for (const p of ['/api/v1/system/status', '/api/v1/system/health', '/api/v1/system/metrics']) {
        const res = await send('get', p);
        expect(res.status).toBe(200);
        expectDocumented('get', p, res);
      }
    });

    it('documents and memories: ingest, remember, get, reinforce, suppress, resolve, forget', async () => {
      const ingested = await send('post', '/api/v1/memory', {
        id: 'doc-1',
        text: 'Hydration guide for older adults',
        vector: Array.from({ length: 64 }, (_, i) => (i % 7) / 7),
        tags: ['guide'],
      });
      expect(ingested.status).toBe(200);
      expectDocumented('post', '/api/v1/memory', ingested);
      const remembered = await send('post', '/api/v1/memory/remember', {
        id: 'm-1',
        text: 'Grandma walks in the garden every morning',
        type: 'EPISODIC',
        source: 'USER_STATED',
        tags: ['routine'],
      });
      expect(remembered.status).toBe(200);
      expectDocumented('post', '/api/v1/memory/remember', remembered);
      const one = await send('get', '/api/v1/memory/m-1');
      expect(one.status).toBe(200);
      expectDocumented('get', '/api/v1/memory/:id', one);
      const reinforced = await send('post', '/api/v1/memory/m-1/reinforce', { outcome: 'POSITIVE' });
      expect(reinforced.status).toBe(200);
      expectDocumented('post', '/api/v1/memory/:id/reinforce', reinforced);
      const suppressed = await send('post', '/api/v1/memory/m-1/suppress', { suppressed: true });
      expect(suppressed.body.suppressed).toBe(true);
      expectDocumented('post', '/api/v1/memory/:id/suppress', suppressed);
      expectDocumented(
        'post',
        '/api/v1/memory/:id/suppress',
        await send('post', '/api/v1/memory/m-1/suppress', { suppressed: false }),
      );
      const resolved = await send('post', '/api/v1/memory/m-1/resolve');
      expect(resolved.status).toBe(200);
      expectDocumented('post', '/api/v1/memory/:id/resolve', resolved);
      await send('post', '/api/v1/memory/remember', {
        id: 'm-2',
        text: 'temporary note',
        type: 'SEMANTIC',
        source: 'AGENT_INFERRED',
      });
      const forgotten = await send('delete', '/api/v1/memory/m-2');
      expect(forgotten.body.state).toBe('FORGOTTEN');
      expectDocumented('delete', '/api/v1/memory/:id', forgotten);
    });

    it('recall, why-not, introspect', async () => {
      await send('post', '/api/v1/memory/remember', {
        id: 'm-3',
        text: 'Insulin is taken before breakfast',
        type: 'SEMANTIC',
        source: 'USER_STATED',
      });
      const recalled = await send('post', '/api/v1/memory/recall', { query: 'insulin breakfast', topK: 5 });
      expect(recalled.status).toBe(200);
      expect(recalled.body.results.length).toBeGreaterThan(0);
      expectDocumented('post', '/api/v1/memory/recall', recalled);
      for (const memoryId of ['m-3', 'm-1', 'nowhere']) {
        const whyNot = await send('post', '/api/v1/memory/why-not', {
          memoryId,
          query: 'insulin breakfast',
          topK: 1,
        });
        expect(whyNot.status).toBe(200);
        expectDocumented('post', '/api/v1/memory/why-not', whyNot);
      }
      for (const topic of ['insulin', 'astronomy']) {
        const introspect = await send('post', '/api/v1/memory/introspect', { topic });
        expect(introspect.status).toBe(200);
        expectDocumented('post', '/api/v1/memory/introspect', introspect);
      }
    });

    it('reminders, scratchpad, reflect, status', async () => {
      const reminder = await send('post', '/api/v1/memory/reminder', {
        text: 'Call the pharmacy',
        delaySeconds: 3600,
        tags: 'meds',
      });
      expect(reminder.status).toBe(200);
      expectDocumented('post', '/api/v1/memory/reminder', reminder);
      expectDocumented('get', '/api/v1/memory/reminders', await send('get', '/api/v1/memory/reminders'));
      const pad = await send('post', '/api/v1/memory/scratchpad', {
        text: 'Ask about the knee',
        ttlSeconds: 600,
      });
      expect(pad.status).toBe(200);
      expectDocumented('post', '/api/v1/memory/scratchpad', pad);
      const list = await send('get', '/api/v1/memory/scratchpad');
      expect(list.body.entries.length).toBe(1);
      expectDocumented('get', '/api/v1/memory/scratchpad', list);
      const reflect = await send('post', '/api/v1/memory/reflect', {});
      expect(reflect.status).toBe(200);
      expectDocumented('post', '/api/v1/memory/reflect', reflect);
      const status = await send('get', '/api/v1/memory/status');
      expect(status.status).toBe(200);
      expectDocumented('get', '/api/v1/memory/status', status);
    });

    it('errors match the problem responses; a body that disagrees with the document fails', async () => {
      const bad = await send('post', '/api/v1/memory/recall', { query: '' });
      expect(bad.status).toBe(400);
      expectDocumented('post', '/api/v1/memory/recall', bad);
      expect(
        checkDocumentedResponse(doc, 'post', '/api/v1/memory/recall', 200, {
          query: 'q',
          topK: 1,
          partition: 'p',
          results: [{ id: 'x' }],
        }),
      ).not.toEqual([]);
    });
  });
});
