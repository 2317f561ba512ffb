import type { ChatEvent } from '../../src/chat/chat-events';
import type { ChatCatalog } from '../../src/chat/chat-catalog';
import { readSkillReferenceTool } from '../../src/tools/read-skill-reference.tool';
import { searchCatalogTool } from '../../src/tools/search-catalog.tool';
import { ToolRegistry } from '../../src/tools/tool-registry';
import type { ToolContext } from '../../src/tools/tool.types';
import { shippedChatCatalog } from './support/catalog';

describe('tool registry and allow policy', () => {
  let catalog: ChatCatalog;
  let registry: ToolRegistry;
  beforeAll(async () => {
    catalog = await shippedChatCatalog();
    registry = new ToolRegistry([
      readSkillReferenceTool(catalog),
      searchCatalogTool((q, n) => catalog.search(q, n)),
    ]);
  });

  const ctxFor = (agentId: string, allowClinical = false): ToolContext => ({
    tenantId: 't',
    userId: 'u',
    threadId: 'th',
    agent: catalog.agent(agentId)!,
    allowClinical,
    signal: new AbortController().signal,
  });

  async function run(agentId: string, name: string, args: Record<string, unknown>, allowClinical = false) {
    const events: ChatEvent[] = [];
    const out = await registry.execute(
      { id: 'c1', name, arguments: args },
      ctxFor(agentId, allowClinical),
      (e) => events.push(e),
    );
    return { ...out, events };
  }

  it('offers a model only the tools the agent declares and the registry has', () => {
    expect(registry.specsFor(catalog.agent('cardiology-guide')!).map((t) => t.name)).toEqual([
      'read_skill_reference',
    ]);
    expect(registry.specsFor({ tools: ['save_memory', 'search_catalog'] }).map((t) => t.name)).toEqual([
      'search_catalog',
    ]);
  });

  it('refuses a tool the agent does not declare, with tool_start and tool_end (allowed: false)', async () => {
    const { record, events } = await run('cardiology-guide', 'search_catalog', { query: 'sleep' });
    expect(record).toMatchObject({ allowed: false, status: 'denied', reason: 'not_declared' });
    expect(events.map((e) => e.event)).toEqual(['tool_start', 'tool_end']);
    expect(events[1].data).toMatchObject({
      allowed: false,
      status: 'denied',
      result: { bytes: expect.any(Number) },
    });
  });

  it('refuses an unknown tool name', async () => {
    expect((await run('sleep-coach', 'delete_everything', {})).record).toMatchObject({
      allowed: false,
      reason: 'unknown_tool',
    });
  });

  it('needs allow_clinical for a clinical agent reading a clinical skill, not for a non-clinical skill', async () => {
    const args = { skill: 'heart-health-education', reference: 'cardiac-warning-signs.md' };
    expect((await run('cardiology-guide', 'read_skill_reference', args)).record.reason).toBe(
      'clinical_not_allowed',
    );
    const allowed = await run('cardiology-guide', 'read_skill_reference', args, true);
    expect(allowed.record).toMatchObject({ allowed: true, status: 'success' });
    expect(allowed.record.bytes).toBe(Buffer.byteLength(allowed.outcome.content));
    const sleep = await run('sleep-coach', 'read_skill_reference', {
      skill: 'sleep-hygiene',
      reference: 'sleep-habits.md',
    });
    expect(sleep.record).toMatchObject({ allowed: true, status: 'success' });
  });

  it('needs allow_clinical for a clinical skill read by an agent that is not itself clinical', async () => {
    expect(catalog.agent('heart-healthy-eating-coach')!.clinical).toBe(false);
    const args = { skill: 'heart-health-education', reference: 'cardiac-warning-signs.md' };
    const refused = await run('heart-healthy-eating-coach', 'read_skill_reference', args);
    expect(refused.record).toMatchObject({ allowed: false, reason: 'clinical_not_allowed' });
    expect(refused.outcome.content).not.toMatch(/chest/i);
    const allowed = await run('heart-healthy-eating-coach', 'read_skill_reference', args, true);
    expect(allowed.record).toMatchObject({ allowed: true, status: 'success' });
  });

  it('reads only references of the agent own skills and rejects path tricks', async () => {
    expect(
      (
        await run('sleep-coach', 'read_skill_reference', {
          skill: 'insurance-basics',
          reference: 'coverage-terms.md',
        })
      ).record.status,
    ).toBe('not_found');
    expect(
      (await run('sleep-coach', 'read_skill_reference', { skill: 'sleep-hygiene', reference: '../SKILL.md' }))
        .record.status,
    ).toBe('not_found');
    expect((await run('sleep-coach', 'read_skill_reference', { skill: 'sleep-hygiene' })).record.status).toBe(
      'invalid',
    );
  });

  it('search_catalog lists matching specialists for an agent that declares it', async () => {
    const router = catalog.agent('router')!;
    const events: ChatEvent[] = [];
    const out = await registry.execute(
      { id: 'c', name: 'search_catalog', arguments: { query: 'insurance claim denied', limit: 3 } },
      { ...ctxFor('sleep-coach'), agent: router },
      (e) => events.push(e),
    );
    expect(out.record).toMatchObject({ allowed: true, status: 'success' });
    expect(out.outcome.content).toMatch(/claims-appeals-helper|insurance/);
  });
});
