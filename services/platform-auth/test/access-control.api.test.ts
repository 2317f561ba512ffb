import { createHmac } from 'node:crypto';
import request from 'supertest';
import fc from 'fast-check';
import { aUser, bearer, seedUser, tokenOf, type TestUser } from './builders/user.builder';
import { buildApp, openTestDb, type TestApp, type TestDb } from './support/harness';
import { describeEachEngine, signTestToken } from '@care/service-kit/testing';
import { rawRequest, serve } from './support/raw-http';

describeEachEngine('access pipeline', (engine) => {
  let t: TestDb;
  let h: TestApp;
  let viewer: TestUser,
    user: TestUser,
    tenantAdmin: TestUser,
    platformAdmin: TestUser,
    otherTenantUser: TestUser;
  let server: { port: number; close(): Promise<void> };
  // A chat upstream that answers 200 to anything: a path that slipped through to the proxy would show up as 200.
  let upstream: { port: number; close(): Promise<void> };
  beforeAll(async () => {
    t = await openTestDb(engine);
    upstream = await serve((req, res) => res.end(`upstream saw ${req.url}`));
    h = buildApp(t.db, { CARE_CONSULT_URL: `http://127.0.0.1:${upstream.port}` });
    viewer = await seedUser(t.db, h.hasher, aUser().withRole('VIEWER').inTenant('acme').build());
    user = await seedUser(t.db, h.hasher, aUser().withRole('USER').inTenant('acme').build());
    tenantAdmin = await seedUser(t.db, h.hasher, aUser().withRole('TENANT_ADMIN').inTenant('acme').build());
    platformAdmin = await seedUser(
      t.db,
      h.hasher,
      aUser().withRole('PLATFORM_ADMIN').inTenant('platform').build(),
    );
    otherTenantUser = await seedUser(t.db, h.hasher, aUser().withRole('USER').inTenant('globex').build());
    server = await serve(h.app);
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
    await t.close();
  });

  const as = (u: TestUser) => ({ Authorization: bearer(u) });
  const kbCount = async (u: TestUser) =>
    (await request(h.app).get('/api/v1/kb/documents').set(as(u))).body.items.length as number;

  it('rejects a valid-signed token that names an unknown critical header parameter (RFC 7515 4.1.11)', async () => {
    const claims = {
      sub: platformAdmin.id,
      email: platformAdmin.email,
      tenantId: 'platform',
      roles: ['PLATFORM_ADMIN'],
    };
    const crit = signTestToken(claims, {
      header: { alg: 'HS256', crit: ['urn:example:must-understand'] } as never,
    });
    for (const path of ['/api/v1/tenants', '/api/v1/auth/me', '/api/v1/chat/threads']) {
      expect({
        path,
        status: (await request(h.app).get(path).set('Authorization', `Bearer ${crit}`)).status,
      }).toEqual({ path, status: 401 });
    }
    expect(
      (
        await request(h.app)
          .get('/api/v1/tenants')
          .set('Authorization', `Bearer ${signTestToken(claims)}`)
      ).status,
    ).toBe(200);
  });

  describe('401 versus 403', () => {
    it('answers 401 with WWW-Authenticate: Bearer when an authenticated area is called without a token', async () => {
      for (const path of [
        '/api/v1/users',
        '/api/v1/tenants',
        '/api/v1/config',
        '/api/v1/nothing-here',
        '/',
      ]) {
        const res = await request(h.app).get(path);
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      }
    });

    it('skips only the 401 step on the chain-open areas: anonymous callers still fail the scope check with 403', async () => {
      for (const path of ['/api/v1/kb/documents', '/api/v1/workflow', '/api/v1/chat/threads/x']) {
        const res = await request(h.app).get(path);
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
      }
    });

    it('answers 403 to an authenticated caller without the required scope, and for paths with no mapping', async () => {
      expect((await request(h.app).get('/api/v1/users').set(as(user))).status).toBe(403);
      expect(
        (await request(h.app).post('/api/v1/kb/documents').set(as(viewer)).send({ title: 't', content: 'c' }))
          .status,
      ).toBe(403);
      expect(
        (
          await request(h.app)
            .patch('/api/v1/config')
            .set(as(user))
            .send({ settings: { a: 1 } })
        ).status,
      ).toBe(403);
      expect((await request(h.app).get('/api/v1/tenants').set(as(tenantAdmin))).status).toBe(403);
      const unmapped = await request(h.app).get('/api/v1/nothing-here').set(as(platformAdmin));
      expect(unmapped.status).toBe(403);
      expect(unmapped.body.code).toBe('NO_SCOPE_MAPPING');
      const noPostRow = await request(h.app).post('/api/v1/config').set(as(platformAdmin)).send({});
      expect(noPostRow.body.code).toBe('NO_SCOPE_MAPPING');
    });

    it('grants by the most specific mapping and method: GET needs :read, writes need :access or admin:config', async () => {
      expect((await request(h.app).get('/api/v1/kb/documents').set(as(viewer))).status).toBe(200);
      expect((await request(h.app).head('/api/v1/kb/documents').set(as(viewer))).status).toBe(200);
      expect((await request(h.app).get('/api/v1/config').set(as(viewer))).status).toBe(200);
      expect(
        (
          await request(h.app)
            .patch('/api/v1/config')
            .set(as(tenantAdmin))
            .send({ settings: { a: 1 } })
        ).status,
      ).toBe(200);
      expect((await request(h.app).get('/api/v1/users').set(as(tenantAdmin))).status).toBe(200);
      expect((await request(h.app).get('/api/v1/tenants').set(as(platformAdmin))).status).toBe(200);
    });

    it('leaves /actuator and /api/v1/auth open even with a garbage-free anonymous call', async () => {
      expect((await request(h.app).get('/actuator/health/liveness')).status).toBe(200);
      expect(
        (await request(h.app).post('/api/v1/auth/login').send({ email: 'x@y.z', password: 'p' })).status,
      ).toBe(401);
    });
  });

  describe('JWT attack suite: rejected with 401 and nothing changed', () => {
    const base = () => ({
      sub: user.id,
      email: user.email,
      tenantId: user.tenantId,
      roles: ['PLATFORM_ADMIN'],
    });
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const unsigned = (alg: string) =>
      `${b64({ alg, typ: 'JWT' })}.${b64({ ...base(), iss: 'care-platform', aud: 'care-platform', exp: Math.floor(Date.now() / 1000) + 300 })}`;
    const attacks: Array<[string, () => string]> = [
      ['alg none', () => `${unsigned('none')}.`],
      ['alg None', () => `${unsigned('None')}.`],
      ['alg nOnE', () => `${unsigned('nOnE')}.`],
      [
        'alg NONE with an HMAC signature',
        () => `${unsigned('NONE')}.${createHmac('sha256', 'x').update(unsigned('NONE')).digest('base64url')}`,
      ],
      ['expired', () => signTestToken(base(), { expiresIn: -60 })],
      ['nbf in the future', () => signTestToken(base(), { notBefore: 120 })],
      ['wrong issuer', () => signTestToken(base(), { issuer: 'evil' })],
      ['wrong audience', () => signTestToken(base(), { audience: 'someone-else' })],
      [
        'signed with another key',
        () => signTestToken(base(), {}, 'another-secret-that-is-at-least-32-bytes'),
      ],
      ['missing tenantId', () => signTestToken({ ...base(), tenantId: undefined })],
      ['missing roles', () => signTestToken({ ...base(), roles: undefined })],
      [
        'tampered payload (roles and tenant swapped, signature kept)',
        () => {
          const [head, , sig] = tokenOf(user).split('.');
          const payload = b64({
            ...base(),
            tenantId: 'globex',
            iss: 'care-platform',
            aud: 'care-platform',
            exp: Math.floor(Date.now() / 1000) + 300,
          });
          return `${head}.${payload}.${sig}`;
        },
      ],
      [
        'tenant A token re-signed for tenant B with a guessed key',
        () =>
          signTestToken(
            { ...base(), tenantId: otherTenantUser.tenantId },
            {},
            'guessed-secret-guessed-secret-guessed!!',
          ),
      ],
    ];

    it.each(attacks)('%s', async (_name, make) => {
      const token = make();
      const before = await kbCount(user);
      for (const [method, path] of [
        ['post', '/api/v1/kb/documents'],
        ['get', '/api/v1/users'],
        ['get', '/api/v1/auth/me'],
        ['post', '/api/v1/tenants'],
      ] as const) {
        const call = request(h.app)[method](path);
        const res = await call
          .set('Authorization', `Bearer ${token}`)
          .send({ title: 'x', content: 'y', id: 'evil', name: 'evil' });
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      }
      expect(await kbCount(user)).toBe(before);
      const tenants = await request(h.app).get('/api/v1/tenants').set(as(platformAdmin));
      expect(tenants.body.items.map((x: { id: string }) => x.id)).not.toContain('evil');
    });

    it('keeps tenant B data out of reach of a valid tenant A token (404, unchanged)', async () => {
      const created = await request(h.app)
        .post('/api/v1/kb/documents')
        .set(as(otherTenantUser))
        .send({ title: 'globex only', content: 'secret plan' });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect((await request(h.app).get(`/api/v1/kb/documents/${id}`).set(as(user))).status).toBe(404);
      expect((await request(h.app).delete(`/api/v1/kb/documents/${id}`).set(as(user))).status).toBe(404);
      const list = await request(h.app).get('/api/v1/kb/documents?q=secret').set(as(user));
      expect(list.body.items).toEqual([]);
      expect(
        (await request(h.app).get(`/api/v1/kb/documents/${id}`).set(as(otherTenantUser))).body.content,
      ).toBe('secret plan');
      const foreignUsers = await request(h.app).get('/api/v1/users?tenantId=globex').set(as(tenantAdmin));
      expect(foreignUsers.status).toBe(403);
    });
  });

  describe('path normalisation cannot reach a route under a weaker mapping', () => {
    const attempts = [
      '/API/V1/users',
      '/Api/v1/Users/',
      '/api/v1/users/',
      '/api/v1/users//',
      '/api/v1/%75sers',
      '/api/v1/users%2F',
      '/api/v1/chat/..%2F..%2Fv1%2Fusers',
      '/api/v1/chat/../users',
      '/api/v1/chat/%2e%2e/users',
      '/api/v1/chat/%2E%2E/users',
      '/api/v1/kb/./../users',
      '/api/v1/kb/..;/users',
      '/api/v1//users',
      '//api/v1/users',
      '/api/v1/chat/..\\users',
      '/api/v1/chat/%252e%252e/users',
      '/api/v1/auth/../users',
      '/api/v1/auth/%2e%2e/users',
      '/actuator/..%2f/api/v1/users',
      '/actuator/../api/v1/users',
    ];

    it.each(attempts)('%s never answers the users list to a USER', async (path) => {
      const res = await rawRequest(server.port, 'GET', path, { Authorization: bearer(user) });
      expect([400, 403, 404]).toContain(res.status);
      expect(res.body).not.toContain(user.email);
      expect(res.body).not.toContain('upstream saw');
    });

    it('refuses dot segments and encoded separators with 400 NON_CANONICAL_PATH before any routing', async () => {
      for (const path of [
        '/api/v1/chat/../users',
        '/api/v1/chat/%2e%2e/users',
        '/api/v1/chat/x%2Fy',
        '/api/v1/chat//x',
        '/api/v1/chat/x;y',
      ]) {
        const res = await rawRequest(server.port, 'GET', path, { Authorization: bearer(user) });
        expect(res.status).toBe(400);
        expect(JSON.parse(res.body).code).toBe('NON_CANONICAL_PATH');
      }
      expect(
        (await rawRequest(server.port, 'GET', '/api/v1/chat/threads/abc', { Authorization: bearer(user) }))
          .body,
      ).toBe('upstream saw /api/chat/threads/abc');
    });

    it('still routes the canonical variants Express accepts, under the users mapping', async () => {
      for (const path of ['/API/V1/users', '/api/v1/users/', '/api/v1/users//']) {
        const res = await rawRequest(server.port, 'GET', path, { Authorization: bearer(tenantAdmin) });
        expect(res.status).toBe(200);
      }
    });

    it('random case, slash, dot and escape mutations of a users path never reach it without admin:users', async () => {
      const mutate = fc.array(
        fc.constantFrom('upper', 'slash', 'dot', 'dotdot', 'escape', 'encslash', 'semi', 'trailing'),
        { minLength: 1, maxLength: 4 },
      );
      await fc.assert(
        fc.asyncProperty(
          mutate,
          fc.constantFrom('/api/v1/chat/x/', '/api/v1/kb/', '/api/v1/auth/', '/api/v1/'),
          async (ops, prefix) => {
            let path = `${prefix}users`;
            for (const op of ops) {
              if (op === 'upper') path = path.toUpperCase();
              if (op === 'slash') path = path.replace('/users', '//users');
              if (op === 'dot') path = path.replace('/users', '/./users');
              if (op === 'dotdot') path = path.replace('/users', '/x/../users');
              if (op === 'escape') path = path.replace(/s/i, '%73');
              if (op === 'encslash') path = path.replace(/\/(users)$/i, '%2F$1');
              if (op === 'semi') path = path.replace(/(users)$/i, '$1;a=b');
              if (op === 'trailing') path = `${path}/`;
            }
            const res = await rawRequest(server.port, 'GET', path, { Authorization: bearer(user) });
            expect(res.body).not.toContain(user.email);
            if (res.body.startsWith('upstream saw ')) {
              // Reaching the chat proxy is legitimate for a chat path, but only with a path that stays inside chat.
              const seen = decodeURIComponent(res.body.slice('upstream saw '.length));
              expect(seen.toLowerCase().startsWith('/api/chat/')).toBe(true);
              expect(seen.split('/')).not.toContain('..');
              expect(seen.slice(1)).not.toMatch(/\/\/|\\|;/);
            } else {
              expect([400, 403, 404]).toContain(res.status);
            }
          },
        ),
        { numRuns: 60 },
      );
    });
  });

  describe('CORS from configuration', () => {
    it('answers preflights for configured origins only', async () => {
      const cors = buildApp(t.db, { CORS_ALLOWED_ORIGINS: 'https://console.example' });
      const ok = await request(cors.app)
        .options('/api/v1/users')
        .set('Origin', 'https://console.example')
        .set('Access-Control-Request-Method', 'GET');
      expect(ok.status).toBe(204);
      expect(ok.headers['access-control-allow-origin']).toBe('https://console.example');
      const other = await request(cors.app)
        .options('/api/v1/users')
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'GET');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const exposed = await request(cors.app).get('/api/v1/users').set('Origin', 'https://console.example');
      expect(exposed.headers['access-control-expose-headers']).toMatch(/WWW-Authenticate/);
    });
  });
});
