import { Type } from '@care/contracts';
import { LoginRequest, RefreshRequest } from '@care/contracts';
import { fuzzHttp, signTestToken, type FuzzRoute } from '@care/service-kit/testing';
import { CreateDocument, ListDocumentsQuery } from '../src/kb/kb.schemas';
import { ConfigPatch } from '../src/tenant-config/tenant-config.schemas';
import { CreateUserRequest, UpdateUserRequest, UsersQuery } from '../src/users/users.schemas';
import { CreateWorkflow, ReplaceWorkflow } from '../src/workflow/workflow.schemas';
import { aUser, bearer, seedUser } from './builders/user.builder';
import { buildApp, openTestDb, type TestDb } from './support/harness';
import { serve } from './support/raw-http';

// Issue 15: every malformed input is a 4xx problem, never a 5xx, and the service stays healthy. >= 10,000
// requests generated from the request schemas plus byte-level mutations, against the app on a real socket.
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);

describe('fuzzing every platform-auth route (no 5xx on bad input)', () => {
  let t: TestDb;
  let app: { port: number; close(): Promise<void> };
  let upstream: { port: number; close(): Promise<void> };
  beforeAll(async () => {
    t = await openTestDb();
    // The chat proxy's upstream: answers any forwarded request, so only the proxy's own handling is under test.
    upstream = await serve((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    });
    const h = buildApp(t.db, {
      CARE_CONSULT_URL: `http://127.0.0.1:${upstream.port}`,
      LOGIN_MAX_IP_FAILURES: '1000000',
    });
    const user = await seedUser(t.db, h.hasher, aUser().withRole('TENANT_ADMIN').inTenant('acme').build());
    const admin = await seedUser(
      t.db,
      h.hasher,
      aUser().withRole('PLATFORM_ADMIN').inTenant('platform').build(),
    );
    app = await serve(h.app);
    headerSets.push(
      {},
      { authorization: bearer(user) },
      { authorization: bearer(admin) },
      {
        authorization: `Bearer ${signTestToken({ sub: 'auth0|5f7c8ec7', tenantId: 'acme', roles: ['USER'] })}`,
      },
    );
    params.id = [user.id, admin.id, 'acme', 'platform'];
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
    await t.close();
  });

  const headerSets: Array<Record<string, string>> = [];
  const params: Record<string, string[]> = {};
  const Tenant = Type.Object({ id: Type.String({ maxLength: 63 }), name: Type.String({ maxLength: 200 }) });
  const routes = (): FuzzRoute[] => [
    { method: 'POST', path: '/api/v1/auth/login', body: LoginRequest },
    { method: 'POST', path: '/api/v1/auth/refresh', body: RefreshRequest },
    { method: 'POST', path: '/api/v1/auth/logout', body: RefreshRequest },
    { method: 'GET', path: '/api/v1/auth/me' },
    { method: 'GET', path: '/api/v1/users', query: UsersQuery },
    { method: 'POST', path: '/api/v1/users', body: CreateUserRequest },
    { method: 'GET', path: '/api/v1/users/:id', params },
    { method: 'PATCH', path: '/api/v1/users/:id', body: UpdateUserRequest, params },
    { method: 'DELETE', path: '/api/v1/users/:id', params },
    { method: 'GET', path: '/api/v1/tenants' },
    { method: 'POST', path: '/api/v1/tenants', body: Tenant },
    { method: 'GET', path: '/api/v1/tenants/:id', params },
    { method: 'PATCH', path: '/api/v1/tenants/:id', body: Type.Partial(Tenant), params },
    { method: 'GET', path: '/api/v1/tenants/:id/audit-events', params },
    { method: 'GET', path: '/api/v1/config' },
    { method: 'PATCH', path: '/api/v1/config', body: ConfigPatch },
    { method: 'GET', path: '/api/v1/workflow' },
    { method: 'POST', path: '/api/v1/workflow', body: CreateWorkflow },
    { method: 'PUT', path: '/api/v1/workflow/:id', body: ReplaceWorkflow, params },
    { method: 'GET', path: '/api/v1/kb/documents', query: ListDocumentsQuery },
    { method: 'POST', path: '/api/v1/kb/documents', body: CreateDocument },
    { method: 'GET', path: '/api/v1/kb/documents/:id', params },
    {
      method: 'POST',
      path: '/api/v1/chat',
      body: Type.Object({
        messages: Type.Array(Type.Object({ role: Type.String(), content: Type.String() })),
      }),
    },
    { method: 'GET', path: '/api/v1/chat/threads/:id', params },
    {
      method: 'GET',
      path: '/actuator/metrics/:name',
      params: { name: ['http_server_requests_seconds', '__proto__'] },
    },
    { method: 'GET', path: '/actuator/env/:name', params: { name: ['PORT'] } },
    { method: 'GET', path: '/actuator/health/:component', params: { component: ['db'] } },
    { method: 'GET', path: '/actuator/prometheus' },
  ];

  it(`answers ${REQUESTS} generated and mutated requests without a 5xx, and stays healthy`, async () => {
    const report = await fuzzHttp({
      baseUrl: `http://127.0.0.1:${app.port}`,
      routes: routes(),
      headerSets,
      requests: REQUESTS,
      healthPath: '/actuator/health',
    });
    expect(report.failures.slice(0, 5)).toEqual([]);
    expect(report.sent).toBe(REQUESTS);
    expect(report.healthStatus).toBe(200);
    // The generator reaches past the front door: successes and validation failures both occur.
    expect(report.byStatus[200] ?? 0).toBeGreaterThan(0);
    expect(report.byStatus[400] ?? 0).toBeGreaterThan(0);
  }, 180_000);
});
