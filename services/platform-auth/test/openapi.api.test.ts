import request from 'supertest';
import { checkDocumentedResponse, openOperations } from '@care/contracts';
import { listRoutes } from '@care/service-kit';
import { compareRoutes, lintOpenApi } from '@care/service-kit/testing';
import { createManagementApp } from '../src/app';
import { aUser, bearer, seedUser, type TestUser } from './builders/user.builder';
import { buildApp, openTestDb, type TestApp, type TestDb } from './support/harness';
import { createLogger, createMetrics, HealthRegistry } from '@care/service-kit';

type Doc = Record<string, unknown> & { paths: Record<string, Record<string, { security?: unknown[] }>> };

describe('GET /openapi.json (platform-auth)', () => {
  let t: TestDb;
  let h: TestApp;
  let doc: Doc;
  let admin: TestUser, user: TestUser, root: TestUser;
  beforeAll(async () => {
    t = await openTestDb();
    h = buildApp(t.db);
    admin = await seedUser(t.db, h.hasher, aUser().withRole('TENANT_ADMIN').inTenant('acme').build());
    user = await seedUser(t.db, h.hasher, aUser().withRole('USER').inTenant('acme').build());
    root = await seedUser(t.db, h.hasher, aUser().withRole('PLATFORM_ADMIN').inTenant('platform').build());
    const res = await request(h.app).get('/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as Doc;
  });
  afterAll(async () => {
    await t.close();
  });
  const as = (u: TestUser) => ({ Authorization: bearer(u) });

  it('is served without a token as an OpenAPI 3.1 document, while near-miss paths stay denied', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const res = await request(h.app).get('/openapi.json');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    // deny by default is kept for everything else: only the exact path is open
    for (const p of ['/openapi.yaml', '/openapi.json/x', '/api/v1/openapi.json']) {
      const other = await request(h.app).get(p);
      expect(other.status).toBe(401);
    }
  });

  it('passes redocly lint (recommended rules, repo redocly.yaml) without errors or warnings', async () => {
    const result = await lintOpenApi(doc);
    expect(result.problems).toEqual([]);
    expect(result.errors).toBe(0);
    expect(result.warnings).toBe(0);
  }, 120_000);

  it('documents every mounted route and nothing that is not mounted', () => {
    const routes = listRoutes(h.app);
    expect(routes.length).toBeGreaterThan(30);
    expect(compareRoutes(routes, doc)).toEqual({ undocumented: [], unmounted: [] });
  });

  it('documents the sensitive actuator endpoints only when this port serves them', async () => {
    const off = buildApp(t.db, { MANAGEMENT_PORT: '9091' });
    const offDoc = (await request(off.app).get('/openapi.json')).body as Doc;
    expect(Object.keys(offDoc.paths)).not.toContain('/actuator/env');
    expect(compareRoutes(listRoutes(off.app), offDoc)).toEqual({ undocumented: [], unmounted: [] });
    expect(Object.keys(doc.paths)).toContain('/actuator/env');
  });

  it('the route walk notices an undocumented route (the check can fail)', () => {
    const routes = [...listRoutes(h.app), { method: 'GET', path: '/api/v1/hidden', kind: 'route' as const }];
    expect(compareRoutes(routes, doc).undocumented).toEqual(['GET /api/v1/hidden']);
    const trimmed = { ...doc, paths: { ...doc.paths } };
    delete trimmed.paths['/api/v1/config'];
    expect(compareRoutes(listRoutes(h.app), trimmed).undocumented).toEqual([
      'GET /api/v1/config',
      'PATCH /api/v1/config',
    ]);
    const extra = { ...doc, paths: { ...doc.paths, '/api/v1/ghost': { get: {} } } };
    expect(compareRoutes(listRoutes(h.app), extra).unmounted).toEqual(['GET /api/v1/ghost']);
  });

  it('marks exactly the open endpoints as open', () => {
    expect(openOperations(doc)).toEqual(
      [
        'GET /actuator',
        'GET /actuator/health',
        'GET /actuator/health/liveness',
        'GET /actuator/health/readiness',
        'GET /actuator/health/{component}',
        'GET /actuator/info',
        'GET /openapi.json',
        'POST /api/v1/auth/login',
        'POST /api/v1/auth/logout',
        'POST /api/v1/auth/refresh',
      ].sort(),
    );
  });

  describe('real responses match the documented schemas', () => {
    const expectDocumented = (method: string, path: string, res: request.Response) => {
      const type = String(res.headers['content-type'] ?? '').split(';')[0];
      expect({
        call: `${method} ${path} ${res.status}`,
        issues: checkDocumentedResponse(doc, method, path, res.status, res.body, type),
      }).toEqual({
        call: `${method} ${path} ${res.status}`,
        issues: [],
      });
    };

    it('auth: login, refresh, me', async () => {
      const login = await request(h.app)
        .post('/api/v1/auth/login')
        .send({ email: user.email, password: user.password });
      expect(login.status).toBe(200);
      expectDocumented('post', '/api/v1/auth/login', login);
      const refreshed = await request(h.app)
        .post('/api/v1/auth/refresh')
        .send({ refreshToken: login.body.refreshToken });
      expect(refreshed.status).toBe(200);
      expectDocumented('post', '/api/v1/auth/refresh', refreshed);
      const me = await request(h.app)
        .get('/api/v1/auth/me')
        .set({ Authorization: `Bearer ${login.body.idToken}` });
      expect(me.status).toBe(200);
      expectDocumented('get', '/api/v1/auth/me', me);
    });

    it('users: create, list, get, patch', async () => {
      const created = await request(h.app)
        .post('/api/v1/users')
        .set(as(admin))
        .send({ email: 'doc.nurse@example.test', password: 'nurse-password', roles: ['USER'] });
      expect(created.status).toBe(201);
      expectDocumented('post', '/api/v1/users', created);
      const list = await request(h.app).get('/api/v1/users').set(as(admin));
      expect(list.body.items.length).toBeGreaterThan(0);
      expectDocumented('get', '/api/v1/users', list);
      expectDocumented(
        'get',
        '/api/v1/users/:id',
        await request(h.app).get(`/api/v1/users/${created.body.id}`).set(as(admin)),
      );
      const patched = await request(h.app)
        .patch(`/api/v1/users/${created.body.id}`)
        .set(as(admin))
        .send({ roles: ['VIEWER'] });
      expect(patched.status).toBe(200);
      expectDocumented('patch', '/api/v1/users/:id', patched);
    });

    it('tenants: create, list, rename, audit events', async () => {
      const created = await request(h.app)
        .post('/api/v1/tenants')
        .set(as(root))
        .send({ id: 'doc-tenant', name: 'Doc tenant' });
      expect(created.status).toBe(201);
      expectDocumented('post', '/api/v1/tenants', created);
      expectDocumented('get', '/api/v1/tenants', await request(h.app).get('/api/v1/tenants').set(as(root)));
      const renamed = await request(h.app)
        .patch('/api/v1/tenants/doc-tenant')
        .set(as(root))
        .send({ name: 'Renamed' });
      expect(renamed.status).toBe(200);
      expectDocumented('patch', '/api/v1/tenants/:id', renamed);
      await request(h.app).post('/api/v1/auth/login').send({ email: admin.email, password: admin.password });
      const audit = await request(h.app).get('/api/v1/tenants/acme/audit-events').set(as(root));
      expect(audit.status).toBe(200);
      expect(audit.body.items.length).toBeGreaterThan(0);
      expectDocumented('get', '/api/v1/tenants/:id/audit-events', audit);
    });

    it('config: get before and after a patch', async () => {
      const before = await request(h.app).get('/api/v1/config').set(as(admin));
      expect(before.status).toBe(200);
      expectDocumented('get', '/api/v1/config', before);
      const patched = await request(h.app)
        .patch('/api/v1/config')
        .set(as(admin))
        .send({
          settings: { locale: 'en' },
          branding: { displayName: 'Acme care', primaryColor: '#112233' },
        });
      expect(patched.status).toBe(200);
      expectDocumented('patch', '/api/v1/config', patched);
    });

    it('workflow: create, get, replace, list', async () => {
      const body = {
        name: 'Intake',
        description: 'first contact',
        steps: [
          { id: 'triage', agentId: 'triage-nurse', next: ['close'] },
          { id: 'close', agentId: 'care-navigator', title: 'Close' },
        ],
      };
      const created = await request(h.app).post('/api/v1/workflow').set(as(user)).send(body);
      expect(created.status).toBe(201);
      expectDocumented('post', '/api/v1/workflow', created);
      expectDocumented(
        'get',
        '/api/v1/workflow/:id',
        await request(h.app).get(`/api/v1/workflow/${created.body.id}`).set(as(user)),
      );
      const replaced = await request(h.app)
        .put(`/api/v1/workflow/${created.body.id}`)
        .set(as(user))
        .send({ ...body, version: created.body.version });
      expect(replaced.status).toBe(200);
      expectDocumented('put', '/api/v1/workflow/:id', replaced);
      expectDocumented('get', '/api/v1/workflow', await request(h.app).get('/api/v1/workflow').set(as(user)));
    });

    it('kb: create, get, list', async () => {
      const created = await request(h.app)
        .post('/api/v1/kb/documents')
        .set(as(user))
        .send({ title: 'Hydration', content: 'Drink water.', tags: ['care'] });
      expect(created.status).toBe(201);
      expectDocumented('post', '/api/v1/kb/documents', created);
      const one = await request(h.app).get(`/api/v1/kb/documents/${created.body.id}`).set(as(user));
      expect(one.body.content).toBe('Drink water.');
      expectDocumented('get', '/api/v1/kb/documents/:id', one);
      expectDocumented(
        'get',
        '/api/v1/kb/documents',
        await request(h.app).get('/api/v1/kb/documents').set(as(user)),
      );
    });

    it('actuator: links, health, probes, info, metrics, env', async () => {
      for (const p of [
        '/actuator',
        '/actuator/health',
        '/actuator/health/liveness',
        '/actuator/health/readiness',
        '/actuator/health/db',
        '/actuator/info',
      ]) {
        const res = await request(h.app).get(p);
        expect(res.status).toBe(200);
        expectDocumented('get', p === '/actuator/health/db' ? '/actuator/health/:component' : p, res);
      }
      const names = await request(h.app).get('/actuator/metrics').set(as(root));
      expect(names.status).toBe(200);
      expectDocumented('get', '/actuator/metrics', names);
      const metric = await request(h.app).get(`/actuator/metrics/${names.body.names[0]}`).set(as(root));
      expect(metric.status).toBe(200);
      expectDocumented('get', '/actuator/metrics/:name', metric);
      expectDocumented('get', '/actuator/env', await request(h.app).get('/actuator/env').set(as(root)));
      expectDocumented(
        'get',
        '/actuator/env/:name',
        await request(h.app).get('/actuator/env/HOME').set(as(root)),
      );
    });

    it('the problem default: a real error body matches the Problem schema', async () => {
      const res = await request(h.app).post('/api/v1/users').set(as(admin)).send({ email: 'x' });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expectDocumented('post', '/api/v1/users', res);
      const denied = await request(h.app).get('/api/v1/tenants').set(as(user));
      expect(denied.status).toBe(403);
      expectDocumented('get', '/api/v1/tenants', denied);
    });

    it('a body that disagrees with the document fails the check', () => {
      expect(
        checkDocumentedResponse(doc, 'get', '/api/v1/config', 200, {
          tenantId: 'acme',
          settings: {},
          branding: {},
        }),
      ).not.toEqual([]);
      expect(
        checkDocumentedResponse(doc, 'get', '/api/v1/auth/me', 200, {
          userId: 'u',
          email: null,
          tenantId: 't',
          roles: [],
          scopes: [],
          password: 'x',
        }),
      ).not.toEqual([]);
    });
  });

  it('the management app does not serve it (not an API port)', async () => {
    const mgmt = createManagementApp({
      config: h.config,
      logger: createLogger({ name: 't', level: 'silent' }),
      db: t.db,
      health: new HealthRegistry(),
      metrics: createMetrics('platform-auth'),
    });
    expect((await request(mgmt).get('/openapi.json')).status).toBe(404);
  });
});
