// care-consult's MCP server (ADR 0427), driven by the SDK's own client over real HTTP: the catalog tools,
// `consult` through the chat service (red-flag screen included), and thread isolation by tenant AND user.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { aUser, type UserBuilder } from '../builders/user.builder';
import type { TestContext } from '../support/test-app';
import { createChatContext } from '../chat/support/chat-app';
import { ScriptedProvider, says } from '../chat/support/scripted-provider';

const provider = new ScriptedProvider((_call, req) => ({
  events: says(`Answer to: ${String(req.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '')}`),
}));
let ctx: TestContext;
let server: Server;
let url: string;
const clients: Client[] = [];

beforeAll(async () => {
  ctx = await createChatContext({ overrides: { chatProvider: provider } });
  server = ctx.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await new Promise((r) => server.close(r));
  await ctx.close();
});

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'care-consult-mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  await client.listTools(); // caches the output schemas: every structuredContent below is checked against them
  return client;
}
const as = (user: UserBuilder) => connect({ Authorization: `Bearer ${user.token()}` });
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const data = <T = any>(r: CallToolResult): T => {
  expect(r.isError).toBeFalsy();
  return r.structuredContent as T;
};
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );
/** Every user message any model request carried since `from`. */
const seenByModel = (from: number) =>
  provider.requests
    .slice(from)
    .flatMap((r) => r.messages.filter((m) => m.role === 'user').map((m) => String(m.content)));

describe('care-consult MCP server', () => {
  it('lists the catalog tools and consult with schemas and truthful hints', async () => {
    const client = await as(aUser().inTenant('t-mcp'));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'consult',
      'get_agent',
      'list_skills',
      'read_skill_reference',
      'search_agents',
    ]);
    for (const t of tools) {
      expect([t.inputSchema.type, t.outputSchema?.type]).toEqual(['object', 'object']);
    }
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    for (const name of ['search_agents', 'get_agent', 'list_skills', 'read_skill_reference']) {
      expect(hints[name]).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    }
    expect(hints.consult).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
  });

  it('answers the catalog tools as the REST routes do', async () => {
    const user = aUser().inTenant('t-mcp');
    const client = await as(user);
    const auth = { Authorization: `Bearer ${user.token()}` };
    const found = data(await call(client, 'search_agents', { query: 'sleep', limit: 3 }));
    const rest = await request(ctx.app).get('/api/agents?query=sleep&limit=3').set(auth).expect(200);
    expect(found).toEqual(rest.body);
    expect(found.agents.map((a: { id: string }) => a.id)).toContain('sleep-coach');
    const agent = data(await call(client, 'get_agent', { agent_id: 'sleep-coach' }));
    expect(agent).toEqual((await request(ctx.app).get('/api/agents/sleep-coach').set(auth).expect(200)).body);
    const skills = data(await call(client, 'list_skills'));
    expect(skills).toEqual((await request(ctx.app).get('/api/skills').set(auth).expect(200)).body);
    const ref = data(
      await call(client, 'read_skill_reference', { skill_id: 'sleep-hygiene', reference: 'sleep-habits.md' }),
    );
    expect(ref).toMatchObject({
      skill_id: 'sleep-hygiene',
      name: 'sleep-habits.md',
      path: 'references/sleep-habits.md',
    });
    expect(Buffer.byteLength(ref.text)).toBe(ref.bytes);
    expect(ref.text).toMatch(/sleep/i);
    // Unknown ids are tool errors carrying the problem code; bad arguments are InvalidParams.
    const missing = await call(client, 'get_agent', { agent_id: 'no-such-agent' });
    expect([missing.isError, JSON.parse((missing.content[0] as { text: string }).text).code]).toEqual([
      true,
      'AGENT_NOT_FOUND',
    ]);
    const noRef = await call(client, 'read_skill_reference', {
      skill_id: 'sleep-hygiene',
      reference: 'nope.md',
    });
    expect(JSON.parse((noRef.content[0] as { text: string }).text).code).toBe('REFERENCE_NOT_FOUND');
    for (const [name, args] of [
      ['search_agents', { limit: 0 }],
      ['search_agents', { domain: 'astrology' }],
      ['get_agent', {}],
      ['consult', { question: '   ' }],
      ['consult', { question: 'hi', thread_id: '../x' }],
      ['consult', { question: 'hi', extra: true }],
    ] as const) {
      const err = await failure(call(client, name, args));
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32602);
    }
  });

  it("consults: one answer through the chat service, stored in the caller's thread, continued by thread_id", async () => {
    const user = aUser().inTenant('t-mcp');
    const client = await as(user);
    const first = data(
      await call(client, 'consult', { question: 'How can I fall asleep faster?', agent_id: 'sleep-coach' }),
    );
    expect(first).toMatchObject({
      status: 'complete',
      agent_id: 'sleep-coach',
      provider: 'openai',
      model: 'scripted',
      refusal: null,
      error: null,
    });
    expect(first.answer).toBe('Answer to: How can I fall asleep faster?');
    expect(first.citations).toEqual([]);
    const from = provider.requests.length;
    const second = data(
      await call(client, 'consult', {
        question: 'And if I wake at 3am?',
        thread_id: first.thread_id,
        agent_id: 'sleep-coach',
      }),
    );
    expect(second.thread_id).toBe(first.thread_id);
    // The model saw the earlier exchange of the same thread, then the new question.
    expect(seenByModel(from)).toEqual(['How can I fall asleep faster?', 'And if I wake at 3am?']);
    const history = await request(ctx.app)
      .get(`/api/chat/threads/${first.thread_id}`)
      .set('Authorization', `Bearer ${user.token()}`)
      .expect(200);
    expect(history.body.turns).toBe(2);
    expect(history.body.checkpoints[0].messages.at(-1)).toEqual({
      role: 'assistant',
      content: 'Answer to: And if I wake at 3am?',
    });
  });

  it('applies the red-flag screen exactly as /api/chat: a refusal, no model call, recorded and audited', async () => {
    const user = aUser().inTenant('t-mcp-flag');
    const client = await as(user);
    const from = provider.requests.length;
    const refused = data(
      await call(client, 'consult', {
        question: 'My dad suddenly has a drooping face and slurred speech right now',
        agent_id: 'sleep-coach',
      }),
    );
    expect(refused).toMatchObject({
      status: 'refused',
      provider: 'safety',
      refusal: { reason: 'emergency_red_flag', category: 'stroke_fast' },
    });
    expect(refused.answer).toBe(refused.refusal.message);
    expect(refused.answer).toMatch(/emergency|911|112|999/i);
    expect(provider.requests.length).toBe(from);
    const history = await request(ctx.app)
      .get(`/api/chat/threads/${refused.thread_id}`)
      .set('Authorization', `Bearer ${user.token()}`)
      .expect(200);
    expect(history.body.checkpoints[0]).toMatchObject({
      status: 'refused',
      refusal: { reason: 'emergency_red_flag' },
    });
    await ctx.deps.audit.flush();
    const audit = await request(ctx.app)
      .get('/api/audit?action=chat.refusal')
      .set('Authorization', `Bearer ${user.token()}`)
      .expect(200);
    expect(audit.body.items.map((e: { resourceId: string }) => e.resourceId)).toContain(refused.thread_id);
  });

  it("never shows a consult turn another user's thread (same tenant or another), nor writes to it", async () => {
    const alice = aUser().inTenant('t-iso');
    const bob = aUser().inTenant('t-iso');
    const eve = aUser().inTenant('t-other');
    const mine = data(
      await call(await as(alice), 'consult', {
        question: 'Private: my insomnia since the divorce',
        agent_id: 'sleep-coach',
      }),
    );
    // Same tenant, another user: the thread is not his (404, its existence not revealed), nothing reaches the model.
    let from = provider.requests.length;
    const attempt = await call(await as(bob), 'consult', {
      question: 'What did we talk about?',
      thread_id: mine.thread_id,
      agent_id: 'sleep-coach',
    });
    expect(attempt.isError).toBe(true);
    expect(JSON.parse((attempt.content[0] as { text: string }).text).code).toBe('THREAD_NOT_FOUND');
    expect(JSON.stringify(attempt)).not.toMatch(/divorce/);
    expect(provider.requests.length).toBe(from);
    // Another tenant: thread ids are per tenant, so the same id is a new thread of her own, without Alice's turn.
    from = provider.requests.length;
    const other = data(
      await call(await as(eve), 'consult', {
        question: 'What did we talk about?',
        thread_id: mine.thread_id,
        agent_id: 'sleep-coach',
      }),
    );
    expect(JSON.stringify(other)).not.toMatch(/divorce/);
    expect(seenByModel(from)).toEqual(['What did we talk about?']);
    const evesHistory = await request(ctx.app)
      .get(`/api/chat/threads/${mine.thread_id}`)
      .set('Authorization', `Bearer ${eve.token()}`)
      .expect(200);
    expect(evesHistory.body.turns).toBe(1);
    expect(JSON.stringify(evesHistory.body)).not.toMatch(/divorce/);
    const history = await request(ctx.app)
      .get(`/api/chat/threads/${mine.thread_id}`)
      .set('Authorization', `Bearer ${alice.token()}`)
      .expect(200);
    expect(history.body.turns).toBe(1);
    // Bob's own new thread carries only his question.
    from = provider.requests.length;
    const own = data(
      await call(await as(bob), 'consult', { question: 'Tips for napping?', agent_id: 'sleep-coach' }),
    );
    expect(own.thread_id).not.toBe(mine.thread_id);
    expect(seenByModel(from)).toEqual(['Tips for napping?']);
  });

  it('refuses callers without a valid bearer token (401); GET and DELETE are 405 after the same check', async () => {
    const refused: Record<string, string>[] = [
      {},
      { Authorization: 'Bearer x.y.z' },
      { 'X-API-Key': 'anything' },
    ];
    for (const headers of refused) {
      const err = await failure(connect(headers));
      expect(err).toBeInstanceOf(StreamableHTTPError);
      expect((err as StreamableHTTPError).code).toBe(401);
    }
    for (const method of ['GET', 'DELETE']) {
      expect((await fetch(url, { method, headers: { Accept: 'text/event-stream' } })).status).toBe(401);
      const res = await fetch(url, {
        method,
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${aUser().token()}` },
      });
      expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST']);
    }
  });
});
