import { aUser } from '../builders/user.builder';
import type { TestContext } from '../support/test-app';
import { chat, createChatContext } from './support/chat-app';
import { startMemoryService, type MemoryServer } from './support/memory-service';
import type { Frame } from './support/sse';

// Grounded answers (ADR 0421) against the real memory service: the person's own memories and the tenant's
// knowledge-base passages are retrieved every turn, quoted with numbered citations, and named in `suggestions`.

const AGENT = 'shift-work-sleep-advisor';
const ask = (content: string) => ({ messages: [{ role: 'user', content }], agent_id: AGENT });
const text = (frames: Frame[]) =>
  frames
    .filter((f) => f.event === 'token')
    .map((f) => f.json.content)
    .join('');
const sourcesOf = (frames: Frame[]) =>
  frames.find((f) => f.event === 'suggestions')!.json.sources as Array<{
    n: number;
    kind: string;
    id: string;
    title: string;
  }>;

describe('grounded answers', () => {
  let memory: MemoryServer;
  let ctx: TestContext;
  beforeAll(async () => {
    memory = await startMemoryService();
    ctx = await createChatContext({ env: { MEMORY_BASE_URL: memory.url, MEMORY_API_KEY: memory.apiKey } });
  }, 180_000);
  afterAll(async () => {
    await ctx?.close();
    await memory?.close();
  });

  const remember = async (tenant: string, body: object) => {
    const res = await fetch(`${memory.url}/api/v1/memory/remember`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant-id': tenant, 'x-api-key': memory.apiKey },
      body: JSON.stringify(body),
    });
    expect(res.ok).toBe(true);
  };

  it('uses what the person said in an earlier thread: the allergy and the morning medicine, cited as a memory', async () => {
    const alice = aUser().inTenant('tenant-ground-a');
    const first = await chat(
      ctx.app,
      alice.token(),
      ask("I'm allergic to penicillin and take metformin 500 mg every morning"),
    );
    expect(
      first.frames.find((f) => f.event === 'tool_end' && f.json.tool === 'save_memory')?.json,
    ).toMatchObject({ status: 'success', result: { saved: 1, kinds: ['allergy', 'medicine'] } });
    const later = await chat(ctx.app, alice.token(), ask('What medicine do I take in the morning?'));
    const answer = text(later.frames);
    expect(answer).toMatch(/metformin 500 mg every morning/);
    const sources = sourcesOf(later.frames);
    expect(sources[0]).toMatchObject({ n: 1, kind: 'memory' });
    expect(answer).toContain(`[${sources[0].n}]`);
    expect(later.frames[0].json.thread_id).not.toBe(first.frames[0].json.thread_id);
  });

  it("never recalls or cites another person's memory in the same tenant", async () => {
    const tenant = 'tenant-ground-b';
    const bob = aUser().inTenant(tenant);
    await chat(ctx.app, bob.token(), ask('I take warfarin 5 mg every morning'));
    const carol = aUser().inTenant(tenant);
    const turn = await chat(ctx.app, carol.token(), ask('What medicine do I take in the morning?'));
    expect(text(turn.frames)).not.toMatch(/warfarin/i);
    expect(sourcesOf(turn.frames).filter((s) => s.kind === 'memory')).toEqual([]);
    expect(
      turn.frames.find((f) => f.event === 'tool_end' && f.json.tool === 'recall_memory')!.json.result.count,
    ).toBe(0);
  });

  it("answers from the tenant's knowledge base with the document named, and only in that tenant", async () => {
    const tenant = 'tenant-ground-c';
    const docId = '5d0c2a7e-91b2-4f55-9a3e-0c6c2b1f9d10';
    await remember(tenant, {
      id: `kb:${docId}:0`,
      text: 'Insulin pen storage\n\nKeep unopened insulin pens in the fridge. Once opened, an insulin pen can be kept at room temperature for up to 28 days. Do not freeze insulin.',
      type: 'SEMANTIC',
      source: 'DOCUMENT',
      tags: ['kb', `kbdoc:${docId}`],
    });
    const turn = await chat(
      ctx.app,
      aUser().inTenant(tenant).token(),
      ask('How long can an opened insulin pen stay at room temperature?'),
    );
    const answer = text(turn.frames);
    expect(answer).toContain('28 days');
    expect(sourcesOf(turn.frames)[0]).toMatchObject({
      n: 1,
      kind: 'kb',
      title: 'Insulin pen storage',
      id: `kb:${docId}:0`,
      document_id: docId,
    });
    expect(answer).toMatch(/\[1\] Insulin pen storage \(knowledge base\)/);
    const kbEnd = turn.frames.find(
      (f) => f.event === 'tool_end' && f.json.tool === 'search_knowledge_base',
    )!.json;
    expect(kbEnd).toMatchObject({
      status: 'success',
      allowed: true,
      result: { count: 1, bytes: expect.any(Number) },
    });
    const elsewhere = await chat(
      ctx.app,
      aUser().inTenant('tenant-ground-d').token(),
      ask('How long can an opened insulin pen stay at room temperature?'),
    );
    expect(text(elsewhere.frames)).not.toContain('28 days');
  });

  it('cites first the passage whose document title asks the question, over a sibling document sharing its words', async () => {
    const tenant = 'tenant-ground-f';
    const whatIs = '6a1c2a7e-91b2-4f55-9a3e-0c6c2b1f9d11';
    const symptoms = '6a1c2a7e-91b2-4f55-9a3e-0c6c2b1f9d12';
    await remember(tenant, {
      id: `kb:${whatIs}:0`,
      text: 'What is gout?\n\nGout is a form of arthritis. Its symptoms come and go: gout causes sudden pain and swelling in a joint, often the big toe.',
      type: 'SEMANTIC',
      source: 'DOCUMENT',
      tags: ['kb', `kbdoc:${whatIs}`],
    });
    await remember(tenant, {
      id: `kb:${symptoms}:0`,
      text: 'What are the symptoms of gout?\n\nA hot, red, very tender joint that hurts at night.',
      type: 'SEMANTIC',
      source: 'DOCUMENT',
      tags: ['kb', `kbdoc:${symptoms}`],
    });
    const turn = await chat(ctx.app, aUser().inTenant(tenant).token(), ask('What are the symptoms of gout?'));
    expect(sourcesOf(turn.frames)[0]).toMatchObject({
      n: 1,
      kind: 'kb',
      title: 'What are the symptoms of gout?',
      document_id: symptoms,
    });
    expect(text(turn.frames)).toContain('A hot, red, very tender joint that hurts at night.');
  });

  it('says nothing relevant was found instead of quoting unrelated text, and suggests a question for a clinician', async () => {
    const tenant = 'tenant-ground-e';
    await remember(tenant, {
      text: 'Insulin pen storage\n\nOnce opened, an insulin pen can be kept at room temperature for up to 28 days.',
      type: 'SEMANTIC',
      source: 'DOCUMENT',
      tags: ['kb'],
    });
    // Shares words ("vaccination", "trip", "abroad") with the question but answers another one.
    await remember(tenant, {
      text: 'Travel vaccinations for adults\n\nAdults planning a trip abroad should check their own tetanus and hepatitis A vaccinations with a travel clinic.',
      type: 'SEMANTIC',
      source: 'DOCUMENT',
      tags: ['kb'],
    });
    const turn = await chat(
      ctx.app,
      aUser().inTenant(tenant).token(),
      ask('Which vaccinations does my dog need before a trip abroad?'),
    );
    const answer = text(turn.frames);
    expect(answer).toMatch(/could not find anything/);
    expect(answer).toMatch(/clinician/);
    expect(answer).not.toContain('28 days');
    expect(answer).not.toMatch(/tetanus/);
    expect(sourcesOf(turn.frames)).toEqual([]);
  });
});
