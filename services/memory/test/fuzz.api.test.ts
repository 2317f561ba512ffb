import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import {
  DocumentIngest,
  IntrospectRequest,
  JsonRpcMessage,
  RecallRequest,
  ReinforceRequest,
  RememberRequest,
  ReminderRequest,
  ScratchpadRequest,
  SuppressRequest,
  WhyNotRequest,
} from '@care/contracts';
import type { Database } from '@care/db';
import { fuzzHttp, type FuzzRoute } from '@care/service-kit/testing';
import { buildApp, openTestDatabase } from './support/test-app';

// Issue 15: every malformed input is a 4xx problem, never a 5xx, and the service stays healthy. >= 10,000
// requests generated from the contracts' schemas plus byte-level mutations, against the app on a real socket.
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const KEY = 'a-very-long-test-api-key-0123456789';

describe('fuzzing every memory route (no 5xx on bad input)', () => {
  let database: Database;
  let server: Server;
  beforeAll(async () => {
    database = await openTestDatabase();
    const { app } = buildApp(database, { env: { API_KEY: KEY } });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await database.close();
  });

  const ids = { id: ['m-1', 'doc-1'] };
  const routes: FuzzRoute[] = [
    { method: 'POST', path: '/api/v1/memory', body: DocumentIngest },
    { method: 'GET', path: '/api/v1/memory/status' },
    { method: 'POST', path: '/api/v1/memory/remember', body: RememberRequest },
    { method: 'POST', path: '/api/v1/memory/recall', body: RecallRequest },
    { method: 'POST', path: '/api/v1/memory/why-not', body: WhyNotRequest },
    { method: 'POST', path: '/api/v1/memory/introspect', body: IntrospectRequest },
    { method: 'POST', path: '/api/v1/memory/reminder', body: ReminderRequest },
    { method: 'GET', path: '/api/v1/memory/reminders' },
    { method: 'POST', path: '/api/v1/memory/scratchpad', body: ScratchpadRequest },
    { method: 'GET', path: '/api/v1/memory/scratchpad' },
    { method: 'GET', path: '/api/v1/memory/:id', params: ids },
    { method: 'DELETE', path: '/api/v1/memory/:id', params: ids },
    { method: 'POST', path: '/api/v1/memory/:id/reinforce', body: ReinforceRequest, params: ids },
    { method: 'POST', path: '/api/v1/memory/:id/suppress', body: SuppressRequest, params: ids },
    { method: 'POST', path: '/api/v1/memory/:id/resolve', params: ids },
    { method: 'GET', path: '/api/v1/system/status' },
    { method: 'GET', path: '/api/v1/system/metrics' },
    { method: 'POST', path: '/mcp', body: JsonRpcMessage },
  ];

  it(`answers ${REQUESTS} generated and mutated requests without a 5xx, and stays healthy`, async () => {
    const { port } = server.address() as AddressInfo;
    const headerSets: Array<Record<string, string>> = [
      {},
      { 'x-api-key': KEY },
      { 'x-api-key': KEY, 'x-tenant-id': 'acme' },
      { 'x-api-key': KEY, 'x-tenant-id': 'globex' },
    ];
    const report = await fuzzHttp({
      baseUrl: `http://127.0.0.1:${port}`,
      routes,
      headerSets,
      requests: REQUESTS,
      healthPath: '/api/v1/system/health',
    });
    expect(report.failures.slice(0, 5)).toEqual([]);
    expect(report.sent).toBe(REQUESTS);
    expect(report.healthStatus).toBe(200);
    expect(report.byStatus[200] ?? 0).toBeGreaterThan(0);
    expect(report.byStatus[400] ?? 0).toBeGreaterThan(0);
  }, 240_000);
});
