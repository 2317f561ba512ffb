// The MCP endpoint of memory (ADR 0313), driven by the SDK's own client over real HTTP.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Database } from '@care/db';
import { signTestToken, TEST_JWT_SECRET as SECRET } from '@care/service-kit/testing';
import { buildApp, openTestDatabase, TEST_START } from './support/test-app';

const KEY = 'a-very-long-test-api-key-0123456789';
const IAT = TEST_START.getTime() / 1000;
const token = (tenantId: string) => signTestToken({ sub: 'auth0|mcp', tenantId, roles: ['USER'], iat: IAT });

let database: Database;
const servers: Server[] = [];
const clients: Client[] = [];
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await database?.close();
});

/** Listens on port 0 with the app of `env`; returns its base URL and the app. */
async function serve(env: Record<string, string> = {}) {
  const built = buildApp(database, { env: { API_KEY: KEY, ...env } });
  const server = built.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  servers.push(server);
  return { ...built, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'memory-mcp-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const data = <T = Record<string, unknown>>(r: CallToolResult) => {
  expect(r.isError).toBeFalsy();
  // The text block carries the same JSON for clients that ignore structured content.
  expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(r.structuredContent);
  return r.structuredContent as T;
};
const mcpError = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
};

describe('memory MCP server', () => {
  it('lists every tool with input and output schemas and truthful hints; health and metrics count that list', async () => {
    const { url, app } = await serve();
    const client = await connect(url, { 'X-API-Key': KEY, 'X-Tenant-Id': 'mcp-list' });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'forget',
        'introspect',
        'recall',
        'reflect',
        'reinforce',
        'remember',
        'reminder_create',
        'reminder_list',
        'resolve',
        'scratchpad_get',
        'scratchpad_set',
        'status',
        'suppress',
        'why_not',
      ].sort(),
    );
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.annotations).toEqual(
        expect.objectContaining({
          readOnlyHint: expect.any(Boolean),
          destructiveHint: expect.any(Boolean),
          idempotentHint: expect.any(Boolean),
        }),
      );
    }
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(hints.status?.readOnlyHint).toBe(true);
    expect(hints.why_not?.readOnlyHint).toBe(true);
    expect(hints.recall?.readOnlyHint).toBe(false); // records accesses
    expect([hints.forget?.destructiveHint, hints.forget?.idempotentHint]).toEqual([true, true]);
    expect([hints.reflect?.destructiveHint, hints.remember?.destructiveHint]).toEqual([true, false]);
    expect(hints.remember?.idempotentHint).toBe(false);
    const health = await request(app).get('/api/v1/system/health').expect(200);
    expect(health.body.components.tools.count).toBe(tools.length);
    const metrics = await request(app).get('/api/v1/system/metrics').set('X-API-Key', KEY).expect(200);
    expect(metrics.body.core.tools).toBe(tools.length);
  });

  it('calls every tool through the same services as REST; recall results are memory:// resources', async () => {
    const { url, app } = await serve();
    const headers = { 'X-API-Key': KEY, 'X-Tenant-Id': 'mcp-calls' };
    const client = await connect(url, headers);
    // The client checks every structuredContent against the tool's outputSchema (it throws on a mismatch).
    await client.listTools();
    const a = data<{ id: string; text: string }>(
      await call(client, 'remember', {
        text: 'Allergic to penicillin',
        type: 'SEMANTIC',
        source: 'USER_STATED',
      }),
    );
    const b = data<{ id: string }>(
      await call(client, 'remember', {
        id: 'task-1',
        text: 'Book the cardiology follow-up',
        type: 'EPISODIC',
        source: 'USER_STATED',
      }),
    );
    expect(b.id).toBe('task-1');
    // What MCP stored is what REST reads, in the same partition.
    const rest = await request(app).get(`/api/v1/memory/${a.id}`).set(headers).expect(200);
    expect(rest.body.text).toBe('Allergic to penicillin');

    const recalled = await call(client, 'recall', { query: 'penicillin allergy', topK: 5 });
    const results = data<{ results: { id: string }[]; partition: string }>(recalled);
    expect(results.partition).toBe('mcp-calls');
    expect(results.results[0]?.id).toBe(a.id);
    const links = recalled.content.filter((c) => c.type === 'resource_link') as { uri: string }[];
    expect(links.map((l) => l.uri)).toEqual(results.results.map((r) => `memory://${r.id}`));
    const read = await client.readResource({ uri: links[0]!.uri });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({
      id: a.id,
      text: 'Allergic to penicillin',
    });
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['memory://{id}']);

    const whyNot = data<{ recalled: boolean; reason: string }>(
      await call(client, 'why_not', { memoryId: b.id, query: 'penicillin allergy', topK: 1 }),
    );
    expect(whyNot.reason).not.toBe('NOT_IN_PARTITION');
    expect(
      data<{ topic: string; partition: string }>(await call(client, 'introspect', { topic: 'penicillin' })),
    ).toMatchObject({
      topic: 'penicillin',
      partition: 'mcp-calls',
    });
    const reinforced = data<{ reinforcement: { positive: number } }>(
      await call(client, 'reinforce', { id: a.id, outcome: 'POSITIVE' }),
    );
    expect(reinforced.reinforcement.positive).toBe(1);
    expect(
      data<{ suppressed: boolean }>(await call(client, 'suppress', { id: b.id, suppressed: true }))
        .suppressed,
    ).toBe(true);
    expect(
      data<{ suppressed: boolean }>(await call(client, 'suppress', { id: b.id, suppressed: false }))
        .suppressed,
    ).toBe(false);
    expect(data<{ resolved: boolean }>(await call(client, 'resolve', { id: b.id })).resolved).toBe(true);

    const note = data<{ id: string; tier: string }>(
      await call(client, 'scratchpad_set', { text: 'Working on the refill', ttlSeconds: 600 }),
    );
    expect(note.tier).toBe('working');
    const pad = data<{ entries: { id: string }[] }>(await call(client, 'scratchpad_get'));
    expect(pad.entries.map((e) => e.id)).toEqual([note.id]);
    const reminder = data<{ id: string; state: string }>(
      await call(client, 'reminder_create', { text: 'Take the pill', delaySeconds: 60 }),
    );
    expect(reminder.state).toBe('PENDING');
    const reminders = data<{ reminders: { id: string }[] }>(await call(client, 'reminder_list'));
    expect(reminders.reminders.map((r) => r.id)).toEqual([reminder.id]);
    expect(data<{ trigger: string; partition: string }>(await call(client, 'reflect'))).toMatchObject({
      trigger: 'manual',
      partition: 'mcp-calls',
    });

    const forgotten = data<{ forgotten: boolean }>(await call(client, 'forget', { id: b.id }));
    expect(forgotten.forgotten).toBe(true);
    // The status tool answers exactly what GET /status answers.
    const status = data(await call(client, 'status'));
    const restStatus = await request(app).get('/api/v1/memory/status').set(headers).expect(200);
    expect(status).toEqual(restStatus.body);
    expect((status as { totals: { memories: number } }).totals.memories).toBeGreaterThanOrEqual(3);
  });

  it('turns invalid arguments into an InvalidParams error that stores nothing, and refused operations into tool errors', async () => {
    const { url } = await serve();
    const client = await connect(url, { 'X-API-Key': KEY, 'X-Tenant-Id': 'mcp-invalid' });
    const before = data<{ totals: { memories: number } }>(await call(client, 'status')).totals.memories;
    for (const args of [
      { text: 'x', type: 'BOGUS', source: 'USER_STATED' },
      { text: '', type: 'SEMANTIC', source: 'USER_STATED' },
      { text: 'x', type: 'SEMANTIC', source: 'USER_STATED', extra: 1 },
      { type: 'SEMANTIC', source: 'USER_STATED' },
    ]) {
      const err = await mcpError(call(client, 'remember', args));
      expect(err.code).toBe(-32602);
      expect((err.data as { code: string }).code).toBe('VALIDATION_FAILED');
    }
    expect((await mcpError(call(client, 'recall', { query: 'x', topK: 0 }))).code).toBe(-32602);
    expect((await mcpError(call(client, 'no_such_tool'))).code).toBe(-32602);
    expect(data<{ totals: { memories: number } }>(await call(client, 'status')).totals.memories).toBe(before);
    // A missing memory is a tool error the agent can read (the problem's code), not a protocol failure.
    const missing = await call(client, 'forget', { id: 'no-such-memory' });
    expect(missing.isError).toBe(true);
    expect(JSON.parse((missing.content[0] as { text: string }).text)).toMatchObject({
      code: 'MEMORY_NOT_FOUND',
      status: 404,
    });
    const gone = data<{ id: string }>(
      await call(client, 'remember', { text: 'to be forgotten', type: 'SEMANTIC', source: 'USER_STATED' }),
    );
    data(await call(client, 'forget', { id: gone.id }));
    const again = await call(client, 'forget', { id: gone.id });
    expect([again.isError, JSON.parse((again.content[0] as { text: string }).text).status]).toEqual([
      true,
      409,
    ]);
  });

  it('refuses callers without valid credentials like REST does (401/403), even when /mcp is on the exempt list', async () => {
    const { url } = await serve({ JWT_SECRET: SECRET, API_KEY_EXEMPT_PATHS: '/api/v1/system/health,/mcp' });
    const refused: Record<string, string>[] = [
      {},
      { 'X-API-Key': 'wrong-key-wrong-key-wrong-key-0000' },
      { Authorization: 'Bearer x.y.z' },
    ];
    for (const headers of refused) {
      const err = await connect(url, headers).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StreamableHTTPError);
      expect((err as StreamableHTTPError).code).toBe(401);
    }
    const mismatch = await connect(url, {
      Authorization: `Bearer ${token('acme')}`,
      'X-Tenant-Id': 'globex',
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((mismatch as StreamableHTTPError).code).toBe(403);
    const bad = await connect(url, { 'X-API-Key': KEY, 'X-Tenant-Id': '../etc' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((bad as StreamableHTTPError).code).toBe(400);
    // Stateless: a lone tools/call needs no initialize or session id (docs/mcp.md shows it with curl).
    const plain = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'X-API-Key': KEY,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'status', arguments: {} },
      }),
    });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('mcp-session-id')).toBeNull();
    expect(await plain.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { structuredContent: { partition: { id: 'default' } } },
    });
    // Stateless: no server stream or session to open or end.
    const get = await fetch(`${url}/mcp`, { headers: { 'X-API-Key': KEY, Accept: 'text/event-stream' } });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it("keeps partitions apart through MCP: API-key tenants and a bearer token's tenant", async () => {
    const { url, app } = await serve({ JWT_SECRET: SECRET });
    const acme = await connect(url, { Authorization: `Bearer ${token('acme-mcp')}` });
    const globex = await connect(url, { 'X-API-Key': KEY, 'X-Tenant-Id': 'globex-mcp' });
    const secret = data<{ id: string }>(
      await call(acme, 'remember', {
        text: 'Acme patient takes warfarin',
        type: 'SEMANTIC',
        source: 'USER_STATED',
      }),
    );
    const seen = data<{ results: { id: string }[]; partition: string }>(
      await call(globex, 'recall', { query: 'warfarin patient' }),
    );
    expect(seen.partition).toBe('globex-mcp');
    expect(seen.results.map((r) => r.id)).not.toContain(secret.id);
    expect((await mcpError(globex.readResource({ uri: `memory://${secret.id}` }))).code).toBe(-32002);
    const forget = await call(globex, 'forget', { id: secret.id });
    expect(forget.isError).toBe(true);
    const why = data<{ reason: string }>(
      await call(globex, 'why_not', { memoryId: secret.id, query: 'warfarin' }),
    );
    expect(why.reason).toBe('NOT_IN_PARTITION');
    // Still there, untouched, for its owner (REST with the same token agrees).
    const mine = data<{ results: { id: string }[] }>(
      await call(acme, 'recall', { query: 'warfarin patient' }),
    );
    expect(mine.results.map((r) => r.id)).toContain(secret.id);
    const rest = await request(app)
      .get(`/api/v1/memory/${secret.id}`)
      .set('Authorization', `Bearer ${token('acme-mcp')}`)
      .expect(200);
    expect(rest.body.forgotten).toBe(false);
  });

  it('answers any tool arguments with a result, a tool error or InvalidParams, never an internal error (property)', async () => {
    const { url } = await serve();
    const client = await connect(url, { 'X-API-Key': KEY, 'X-Tenant-Id': 'mcp-prop' });
    const names = (await client.listTools()).tools.map((t) => t.name);
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer({ min: -5, max: 200 }),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('SEMANTIC', 'USER_STATED', 'POSITIVE', 'm-1'),
    );
    const args = fc.dictionary(
      fc.constantFrom(
        'id',
        'text',
        'type',
        'source',
        'query',
        'topK',
        'topic',
        'memoryId',
        'outcome',
        'weight',
        'suppressed',
        'delaySeconds',
        'ttlSeconds',
        'tags',
        'x',
      ),
      value,
      { maxKeys: 5 },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names, 'nope'), args, async (name, a) => {
        try {
          const r = await call(client, name, a);
          if (r.isError) expect(JSON.parse((r.content[0] as { text: string }).text).status).toBeLessThan(500);
        } catch (e) {
          expect(e).toBeInstanceOf(McpError);
          expect((e as McpError).code).toBe(-32602);
          expect((e as McpError).message).not.toMatch(/structured content/i); // the client's output check
        }
      }),
      { numRuns: 150 },
    );
  });

  it('offers no tools in RAG mode, and health counts none', async () => {
    const { url, app } = await serve({ OPERATING_MODE: 'RAG' });
    const client = await connect(url, { 'X-API-Key': KEY });
    expect((await client.listTools()).tools).toEqual([]);
    expect(
      (await mcpError(call(client, 'remember', { text: 'x', type: 'SEMANTIC', source: 'USER_STATED' }))).code,
    ).toBe(-32602);
    const health = await request(app).get('/api/v1/system/health').expect(200);
    expect(health.body.components.tools.count).toBe(0);
  });
});
