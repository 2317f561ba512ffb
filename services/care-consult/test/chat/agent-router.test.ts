import fc from 'fast-check';
import { routeToAgent } from '../../src/chat/agent-router';
import type { ChatCatalog } from '../../src/chat/chat-catalog';
import { suggestFollowUps } from '../../src/chat/suggestions';
import { shippedChatCatalog } from './support/catalog';

describe('agent router over the shipped catalog', () => {
  let catalog: ChatCatalog;
  beforeAll(async () => {
    catalog = await shippedChatCatalog();
  });

  it.each([
    ['My insurance denied a claim, how do I appeal?', /claims|insurance/],
    ['I feel anxious all the time and cannot relax', /anxiety|stress|mindful/],
    ['How much exercise should an older adult get each week?', /activ|aging/],
    ['Where can I get my medical records?', /records/],
  ])('sends "%s" to a fitting specialist found by search', (question, expected) => {
    const decision = routeToAgent(catalog, question, false)!;
    expect(decision.via).toBe('search');
    expect(decision.agent.id).toMatch(expected);
    expect(decision.agent.status).toBe('active');
  });

  it('prefers a nearly as relevant non-clinical specialist only when clinical information is off', () => {
    const agent = (id: string, clinical: boolean) => ({ ...catalog.agent('sleep-coach')!, id, clinical });
    const agents = [agent('clinical-a', true), agent('plain-b', false)];
    const withScores = (b: number): ChatCatalog => ({
      ...catalog,
      activeAgents: () => agents,
      agent: (id) => agents.find((a) => a.id === id),
      search: () => [
        { ...agents[0], score: 10 },
        { ...agents[1], score: b },
      ],
    });
    expect(routeToAgent(withScores(7), 'q', false)!.agent.id).toBe('plain-b');
    expect(routeToAgent(withScores(7), 'q', true)!.agent.id).toBe('clinical-a');
    expect(routeToAgent(withScores(3), 'q', false)!.agent.id).toBe('clinical-a');
  });

  it('falls back to a generalist when no word matches anything', () => {
    const decision = routeToAgent(catalog, 'zzqx qwv', false)!;
    expect(decision.via).toBe('default');
    expect(decision.agent.domain).toBe('navigation');
  });

  it('always returns an active agent, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const decision = routeToAgent(catalog, text, false);
        expect(decision?.agent.status).toBe('active');
      }),
      { numRuns: 100 },
    );
  });
});

describe('follow-up suggestions', () => {
  it('offers unused reference topics closest to the question, then a care-team question, at most three', async () => {
    const catalog = await shippedChatCatalog();
    const references = await catalog.listReferences(['heart-health-education', 'hypertension-education']);
    const items = suggestFollowUps({ question: 'what raises cardiovascular risk', references, used: [{ skill: 'heart-health-education', reference: 'cardiac-warning-signs.md' }] });
    expect(items.length).toBeLessThanOrEqual(3);
    expect(items[0]).toMatch(/risk/i);
    expect(items.at(-1)).toBe('What should I ask my care team about this?');
    expect(items.join(' ')).not.toMatch(/Warning signs: heart/);
    expect(items.every((i) => i.length <= 80)).toBe(true);
  });
});
