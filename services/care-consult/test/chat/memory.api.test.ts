import { aUser } from '../builders/user.builder';
import { closedPort, type TestContext } from '../support/test-app';
import { chat, createChatContext } from './support/chat-app';
import { startMemoryService, type MemoryServer } from './support/memory-service';
import { names, type Frame } from './support/sse';

const ask = (content: string) => ({ messages: [{ role: 'user', content }], agent_id: 'shift-work-sleep-advisor' });
const toolEnd = (frames: Frame[], tool: string) => frames.find((f) => f.event === 'tool_end' && f.json.tool === tool)?.json;

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
    const first = await chat(ctx.app, alice.token(), ask('I work rotating night shifts at the hospital and sleep badly'));
    const order = names(first.frames);
    expect(order.indexOf('tool_start')).toBe(1);
    expect(toolEnd(first.frames, 'recall_memory')).toMatchObject({ status: 'success', allowed: true, result: { count: 0 } });
    expect(toolEnd(first.frames, 'save_memory')).toMatchObject({ status: 'success', allowed: true });
    expect(order.lastIndexOf('tool_end')).toBeLessThan(order.indexOf('suggestions'));
    const later = await chat(ctx.app, alice.token(), ask('Any tips for sleeping after my night shifts?'));
    expect(toolEnd(later.frames, 'recall_memory').result.count).toBeGreaterThanOrEqual(1);
  });

  it('keeps memories inside the tenant partition and to their own user', async () => {
    const owner = aUser().inTenant('tenant-mem-b');
    await chat(ctx.app, owner.token(), ask('I drive a delivery van on night shifts'));
    const sameTenant = await chat(ctx.app, aUser().inTenant('tenant-mem-b').token(), ask('night shifts delivery van sleep'));
    expect(toolEnd(sameTenant.frames, 'recall_memory').result.count).toBe(0);
    const otherTenant = await chat(ctx.app, aUser().withId(owner.build().userId).inTenant('tenant-mem-c').token(), ask('night shifts delivery van sleep'));
    expect(toolEnd(otherTenant.frames, 'recall_memory').result.count).toBe(0);
    const back = await chat(ctx.app, owner.token(), ask('night shifts delivery van sleep'));
    expect(toolEnd(back.frames, 'recall_memory').result.count).toBeGreaterThanOrEqual(1);
  });
});

describe('chat when the memory service is down', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createChatContext({ env: { MEMORY_BASE_URL: `http://127.0.0.1:${await closedPort()}`, MEMORY_TIMEOUT_MS: '300' } });
  });
  afterAll(() => ctx.close());

  it('reports memory as unavailable in tool_end and still answers to the end', async () => {
    const { res, frames } = await chat(ctx.app, aUser().token(), ask('How can I sleep better after night shifts?'));
    expect(res.status).toBe(200);
    expect(toolEnd(frames, 'recall_memory')).toMatchObject({ status: 'unavailable', allowed: true, result: { bytes: expect.any(Number), error: 'unavailable' } });
    expect(toolEnd(frames, 'save_memory')).toMatchObject({ status: 'unavailable' });
    expect(frames.filter((f) => f.event === 'token').length).toBeGreaterThan(5);
    expect(names(frames).slice(-2)).toEqual(['suggestions', 'done']);
  });
});
