import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { AgentsQuery, ChatRequest, JsonRpcMessage, RelayTicketRequest } from '@care/contracts';
import { fuzzHttp, type FuzzRoute } from '@care/service-kit/testing';
import { AuditListQuery } from '../src/audit/audit.schemas';
import { ThreadHistoryQuery } from '../src/threads/threads.schemas';
import { aUser } from './builders/user.builder';
import { SHIPPED_WORKSPACE } from './chat/support/chat-app';
import { RELAY_ENV } from './relay/support/relay-fixtures';
import { createTestContext, type TestContext } from './support/test-app';

// Issue 15: every malformed input is a 4xx problem, never a 5xx, and the service stays healthy. >= 10,000
// requests generated from the contracts' schemas plus byte-level mutations, against the app on a real socket.
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);

describe('fuzzing every care-consult route (no 5xx on bad input)', () => {
  let ctx: TestContext;
  let server: Server;
  beforeAll(async () => {
    ctx = await createTestContext({
      workspaceRoot: SHIPPED_WORKSPACE,
      env: {
        ...RELAY_ENV,
        RELAY_CALLBACK_RATE_LIMIT: '0',
        CHAT_OFFLINE_TOKEN_DELAY_MS: '0',
        CHAT_HEARTBEAT_MS: '0',
      },
    });
    server = await new Promise<Server>((resolve) => {
      const s = ctx.app.listen(0, '127.0.0.1', () => resolve(s));
    });
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await ctx.close();
  });

  const user = `Bearer ${aUser().inTenant('fuzz').withId('auth0|5f7c8ec7c33c6c004bbafe82').token()}`;
  const admin = `Bearer ${aUser().inTenant('fuzz').withId('admin-1').withRole('TENANT_ADMIN').token()}`;
  const routes: FuzzRoute[] = [
    { method: 'GET', path: '/api/health' },
    { method: 'GET', path: '/api/models' },
    { method: 'GET', path: '/api/agents', query: AgentsQuery },
    { method: 'GET', path: '/api/agents/categories' },
    {
      method: 'GET',
      path: '/api/agents/:agentId',
      params: { agentId: ['sleep-coach', 'stress-resilience-coach'] },
    },
    { method: 'GET', path: '/api/skills' },
    { method: 'POST', path: '/mcp', body: JsonRpcMessage },
    { method: 'GET', path: '/api/skills/:skillId', params: { skillId: ['sleep-hygiene'] } },
    { method: 'GET', path: '/api/audit', query: AuditListQuery },
    { method: 'POST', path: '/api/relay/tickets', body: RelayTicketRequest },
    { method: 'GET', path: '/api/relay/callback' },
    { method: 'POST', path: '/api/chat', body: ChatRequest },
    { method: 'GET', path: '/api/chat/threads/:thread_id', query: ThreadHistoryQuery },
    { method: 'POST', path: '/api/attachments' },
    { method: 'GET', path: '/api/attachments' },
    { method: 'GET', path: '/api/attachments/:id' },
    { method: 'GET', path: '/api/attachments/:id/content' },
    { method: 'DELETE', path: '/api/attachments/:id' },
    { method: 'GET', path: '/console/config.json' },
  ];

  it(`answers ${REQUESTS} generated and mutated requests without a 5xx, and stays healthy`, async () => {
    const { port } = server.address() as AddressInfo;
    const report = await fuzzHttp({
      baseUrl: `http://127.0.0.1:${port}`,
      routes,
      headerSets: [{}, { authorization: user }, { authorization: admin }],
      requests: REQUESTS,
      healthPath: '/api/health',
      healthHeaders: { authorization: user },
    });
    expect(report.failures.slice(0, 5)).toEqual([]);
    expect(report.sent).toBe(REQUESTS);
    expect(report.healthStatus).toBe(200);
    expect(report.byStatus[200] ?? 0).toBeGreaterThan(0);
    expect(report.byStatus[400] ?? 0).toBeGreaterThan(0);
  }, 240_000);
});
