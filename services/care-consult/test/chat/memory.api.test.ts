import { aUser } from '../builders/user.builder';
import { closedPort, type TestContext } from '../support/test-app';
import { chat, createChatContext } from './support/chat-app';
import { startMemoryService, type MemoryServer } from './support/memory-service';
import { names, type Frame } from './support/sse';

const ask = (content: string) => ({
  messages: [{ role: 'user', content }],
  agent_id: 'shift-work-sleep-advisor',
});
const toolEnd = (frames: Frame[], tool: string) =>
  frames.find((f) => f.event === 'tool_end' && f.json.tool === tool)?.json;

describe('chat with the memory service', () => {
  let memory: MemoryServer;
  let ctx: TestContext;
  beforeAll(async () => {
    memory = await startMemoryService();
    ctx = await createChatContext({ env: { MEMORY_BASE_URL: memory.url, MEMORY_API_KEY: memory.apiKey } });
  }, 180_000); // the real memory service opens PGlite with pgvector: ~15 s on a busy 2-core machine
  afterAll(async () => {
    await ctx?.close();
    await memory?.close();
  });

  it('recalls before answering, saves an episodic memory after, and recalls it in a later conversation', async () => {
    const alice = aUser().inTenant('tenant-mem-a');
    const first = await chat(
      ctx.app,
      alice.token(),
      ask('I work rotating night shifts at the hospital and sleep badly'),
    );
    const order = names(first.frames);
    expect(order.indexOf('tool_start')).toBe(1);
    expect(toolEnd(first.frames, 'recall_memory')).toMatchObject({
      status: 'success',
      allowed: true,
      result: { count: 0 },
    });
    expect(toolEnd(first.frames, 'save_memory')).toMatchObject({ status: 'success', allowed: true });
    expect(order.lastIndexOf('tool_end')).toBeLessThan(order.indexOf('suggestions'));
    const later = await chat(ctx.app, alice.token(), ask('Any tips for sleeping after my night shifts?'));
    expect(toolEnd(later.frames, 'recall_memory').result.count).toBeGreaterThanOrEqual(1);
  });

  it('keeps memories inside the tenant partition and to their own user', async () => {
    const owner = aUser().inTenant('tenant-mem-b');
    await chat(ctx.app, owner.token(), ask('I drive a delivery van on night shifts'));
    const sameTenant = await chat(
      ctx.app,
      aUser().inTenant('tenant-mem-b').token(),
      ask('night shifts delivery van sleep'),
    );
    expect(toolEnd(sameTenant.frames, 'recall_memory').result.count).toBe(0);
    const otherTenant = await chat(
      ctx.app,
      aUser().withId(owner.build().userId).inTenant('tenant-mem-c').token(),
      ask('night shifts delivery van sleep'),
    );
    expect(toolEnd(otherTenant.frames, 'recall_memory').result.count).toBe(0);
    const back = await chat(ctx.app, owner.token(), ask('night shifts delivery van sleep'));
    expect(toolEnd(back.frames, 'recall_memory').result.count).toBeGreaterThanOrEqual(1);
  });

  it("recalls the caller's own memory although many better-matching memories of others fill the tenant", async () => {
    const tenant = 'tenant-mem-crowd';
    const owner = aUser().inTenant(tenant);
    await chat(ctx.app, owner.token(), ask('I work night shifts in a bakery'));
    // Twenty-five colleagues state nearly the same thing: more than any top K the chat asks for.
    for (let i = 0; i < 25; i++) {
      await chat(
        ctx.app,
        aUser().inTenant(tenant).token(),
        ask(`I work night shifts in a bakery near the station and sleep badly after my shifts ${i}`),
      );
    }
    const back = await chat(
      ctx.app,
      owner.token(),
      ask('night shifts bakery station sleep badly after my shifts'),
    );
    expect(toolEnd(back.frames, 'recall_memory').result.count).toBe(1);
  }, 120_000);

  it('saves no memory for a question or a greeting (no save call, nothing recalled later)', async () => {
    const user = aUser().inTenant('tenant-mem-questions');
    for (const text of ['hi', 'What helps with sleeping after night shifts?', 'thanks!']) {
      const turn = await chat(ctx.app, user.token(), ask(text));
      expect(toolEnd(turn.frames, 'save_memory')).toBeUndefined();
    }
    const later = await chat(ctx.app, user.token(), ask('sleeping after night shifts hi thanks'));
    expect(toolEnd(later.frames, 'recall_memory').result.count).toBe(0);
  });
});

describe('chat when the memory service is down', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createChatContext({
      env: { MEMORY_BASE_URL: `http://127.0.0.1:${await closedPort()}`, MEMORY_TIMEOUT_MS: '300' },
    });
  });
  afterAll(() => ctx.close());

  it('reports memory as unavailable in tool_end and still answers to the end', async () => {
    // A statement worth keeping, so that the save is attempted too (a question would not be saved at all).
    const { res, frames } = await chat(
      ctx.app,
      aUser().token(),
      ask('I work night shifts and sleep badly after them'),
    );
    expect(res.status).toBe(200);
    expect(toolEnd(frames, 'recall_memory')).toMatchObject({
      status: 'unavailable',
      allowed: true,
      result: { bytes: expect.any(Number), error: 'unavailable' },
    });
    expect(toolEnd(frames, 'save_memory')).toMatchObject({ status: 'unavailable' });
    expect(frames.filter((f) => f.event === 'token').length).toBeGreaterThan(5);
    expect(names(frames).slice(-2)).toEqual(['suggestions', 'done']);
  });
});
