import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { testEngines } from '@care/service-kit/testing';
import { openConsultDatabase } from '../support/engines';
import { aUser } from '../builders/user.builder';
import type { TestContext } from '../support/test-app';
import { chat, createChatContext } from './support/chat-app';
import { ScriptedProvider, says } from './support/scripted-provider';
import { names } from './support/sse';

const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user', content }],
  ...extra,
});

function deferred() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  return { gate, open };
}

describe.each(testEngines().map((e) => [e.name, e] as const))('chat threads on %s', (_name, engine) => {
  let ctx: TestContext;
  let closeDb: () => Promise<void>;
  let hold = deferred();
  let holdNext = false;
  const provider = new ScriptedProvider(() =>
    holdNext
      ? { events: says('held answer'), gate: hold.gate }
      : { events: says('A short answer about sleep.') },
  );
  const alice = aUser().inTenant('tenant-1');
  const bob = aUser().inTenant('tenant-1');
  const eve = aUser().inTenant('tenant-2');

  beforeAll(async () => {
    const opened = await engine.open(openConsultDatabase);
    closeDb = opened.close;
    ctx = await createChatContext({ database: opened.database, overrides: { chatProvider: provider } });
  });
  afterAll(async () => {
    await ctx.close();
    await closeDb();
  });

  const history = (user: typeof alice, threadId: string, query = '') =>
    request(ctx.app)
      .get(`/api/chat/threads/${threadId}${query}`)
      .set('Authorization', `Bearer ${user.token()}`);

  it('stores one checkpoint per turn and returns them newest first, paged, each pointing at its parent', async () => {
    const threadId = `t-${Date.now()}`;
    for (let i = 1; i <= 3; i++) {
      const { frames } = await chat(
        ctx.app,
        alice.token(),
        ask(`Question ${i} about sleep`, { agent_id: 'sleep-coach', thread_id: threadId }),
      );
      expect(names(frames).at(-1)).toBe('done');
    }
    const first = await history(alice, threadId, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ thread_id: threadId, agent_id: 'sleep-coach', turns: 3, busy: false });
    expect(first.body.checkpoints.map((c: any) => c.seq)).toEqual([3, 2]);
    const newest = first.body.checkpoints[0];
    expect(newest).toMatchObject({
      status: 'complete',
      agent_id: 'sleep-coach',
      provider: 'openai',
      model: 'scripted',
      suggestions: expect.any(Array),
      refusal: null,
      error: null,
      messages: [
        { role: 'user', content: 'Question 3 about sleep' },
        { role: 'assistant', content: 'A short answer about sleep.' },
      ],
    });
    expect(newest.parent_id).toBe(first.body.checkpoints[1].checkpoint_id);
    expect(Date.parse(newest.completed_at)).toBeGreaterThanOrEqual(Date.parse(newest.started_at));
    const second = await history(alice, threadId, `?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.checkpoints.map((c: any) => c.seq)).toEqual([1]);
    expect(second.body.checkpoints[0].parent_id).toBeNull();
    expect(second.body.next_cursor).toBeNull();
  });

  it('records a refusal turn with its reason, no agent and no tool calls', async () => {
    const threadId = `r-${Date.now()}`;
    await chat(
      ctx.app,
      alice.token(),
      ask('She is having a seizure and will not stop shaking', { thread_id: threadId }),
    );
    const page = await history(alice, threadId);
    expect(page.body.checkpoints[0]).toMatchObject({
      status: 'refused',
      agent_id: null,
      refusal: { reason: 'emergency_red_flag' },
      tool_calls: [],
    });
  });

  it('hides a thread from another user of the tenant and from another tenant (404, no existence leak)', async () => {
    const threadId = `p-${Date.now()}`;
    await chat(
      ctx.app,
      alice.token(),
      ask('Sleep question', { agent_id: 'sleep-coach', thread_id: threadId }),
    );
    expect((await history(bob, threadId)).status).toBe(404);
    expect((await history(eve, threadId)).status).toBe(404);
    expect((await history(alice, 'never-used')).status).toBe(404);
    const hijack = await chat(
      ctx.app,
      bob.token(),
      ask('Sleep question', { agent_id: 'sleep-coach', thread_id: threadId }),
    );
    expect(hijack.res.status).toBe(404);
    // Another tenant may use the same thread id for its own thread: ids are per tenant.
    const other = await chat(
      ctx.app,
      eve.token(),
      ask('Sleep question', { agent_id: 'sleep-coach', thread_id: threadId }),
    );
    expect(other.res.status).toBe(200);
    expect((await history(alice, threadId)).body.turns).toBe(1);
  });

  it('answers 409 to a second request on a busy thread and accepts it once the first turn is done', async () => {
    const threadId = `b-${Date.now()}`;
    hold = deferred();
    holdNext = true;
    const first = chat(
      ctx.app,
      alice.token(),
      ask('first', { agent_id: 'sleep-coach', thread_id: threadId }),
    );
    // Wait until the first turn holds the thread (its model call started).
    const before = provider.requests.length;
    while (provider.requests.length === before) await new Promise((r) => setTimeout(r, 5));
    holdNext = false;
    const second = await chat(
      ctx.app,
      alice.token(),
      ask('second', { agent_id: 'sleep-coach', thread_id: threadId }),
    );
    expect(second.res.status).toBe(409);
    expect(second.problem.code).toBe('THREAD_BUSY');
    expect((await history(alice, threadId)).body.busy).toBe(true);
    hold.open();
    expect(names((await first).frames).at(-1)).toBe('done');
    const third = await chat(
      ctx.app,
      alice.token(),
      ask('third', { agent_id: 'sleep-coach', thread_id: threadId }),
    );
    expect(third.res.status).toBe(200);
  });

  it('records a turn the client abandoned as aborted with the partial answer, and frees the thread', async () => {
    const threadId = `a-${Date.now()}`;
    const slow = new ScriptedProvider(() => ({
      events: says('one two three four five six seven eight nine ten eleven twelve'),
      delayMs: 30,
    }));
    const local = await createChatContext({ database: ctx.deps.database, overrides: { chatProvider: slow } });
    const server = http.createServer(local.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const req = http.request(
          {
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/api/chat',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.token()}` },
          },
          (res) => {
            let seen = '';
            res.on('data', (c: Buffer) => {
              seen += c.toString();
              if ((seen.match(/event: token/g) ?? []).length >= 2) {
                req.destroy();
                resolve();
              }
            });
          },
        );
        req.on('error', () => undefined);
        req.end(JSON.stringify(ask('tell me', { agent_id: 'sleep-coach', thread_id: threadId })));
        setTimeout(() => reject(new Error('no tokens')), 5000);
      });
      let page: any;
      for (let i = 0; i < 100; i++) {
        page = (await history(alice, threadId)).body;
        if (page.turns === 1) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(slow.sawAbort).toBe(true);
      const cp = page.checkpoints[0];
      expect(cp.status).toBe('aborted');
      expect(cp.messages.at(-1).content).toMatch(/^one two/);
      expect(cp.messages.at(-1).content).not.toMatch(/twelve/);
      expect(page.busy).toBe(false);
    } finally {
      await new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      });
      await local.close();
    }
  });

  it('lets exactly one of several simultaneous requests on one thread through, across two app replicas', async () => {
    const threadId = `race-${Date.now()}`;
    const replica = await createChatContext({
      database: ctx.deps.database,
      overrides: { chatProvider: provider },
    });
    try {
      hold = deferred();
      holdNext = true;
      const apps = [ctx.app, replica.app, ctx.app, replica.app, ctx.app, replica.app];
      let settled = 0;
      const pending = apps.map((app) =>
        chat(app, alice.token(), ask('race', { agent_id: 'sleep-coach', thread_id: threadId })).finally(
          () => settled++,
        ),
      );
      // The winner is held inside its model call; every other request must be turned away meanwhile.
      for (let i = 0; i < 300 && settled < apps.length - 1; i++) await new Promise((r) => setTimeout(r, 10));
      holdNext = false;
      hold.open();
      const statuses = (await Promise.all(pending)).map((r) => r.res.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
      expect((await history(alice, threadId)).body.turns).toBe(1);
    } finally {
      await replica.close();
    }
  });

  it('rejects a malformed cursor with 400', async () => {
    const threadId = `c-${Date.now()}`;
    await chat(
      ctx.app,
      alice.token(),
      ask('Sleep question', { agent_id: 'sleep-coach', thread_id: threadId }),
    );
    expect((await history(alice, threadId, '?cursor=abc')).status).toBe(400);
    expect((await history(alice, threadId, '?limit=0')).status).toBe(400);
  });
});
