import fc from 'fast-check';
import { BuiltinProvider } from '../../src/providers/builtin/builtin.provider';
import { toTokens } from '../../src/providers/builtin/builtin.answer';
import { tokenize } from '../../src/providers/builtin/retrieval';
import type { ProviderEvent } from '../../src/providers/provider.types';
import { aProviderRequest, readToolSpec } from './builders/provider-request.builder';
import { fsSkillLibrary } from './support/fs-skill-library';
import { collect } from './support/wire-server';

const library = fsSkillLibrary();
const text = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');

describe('built-in offline engine', () => {
  const engine = new BuiltinProvider({ library });

  it('asks to read the skill reference that best matches the question', async () => {
    const events = await collect(
      engine.stream(
        aProviderRequest()
          .asking('What are the warning signs of a heart attack?')
          .withSkills('heart-health-education', 'hypertension-education')
          .withTools(readToolSpec)
          .build(),
      ),
    );
    expect(events).toEqual([
      {
        type: 'tool_call',
        call: expect.objectContaining({
          name: 'read_skill_reference',
          arguments: { skill: 'heart-health-education', reference: 'cardiac-warning-signs.md' },
        }),
      },
      { type: 'end', reason: 'tool_calls' },
    ]);
  });

  it('picks a different reference for a different question over the same skills', async () => {
    const events = await collect(
      engine.stream(
        aProviderRequest()
          .asking('How can I lower my cholesterol and cardiovascular risk?')
          .withSkills('heart-health-education')
          .withTools(readToolSpec)
          .build(),
      ),
    );
    expect((events[0] as any).call.arguments.reference).toBe('cardiovascular-risk.md');
  });

  it('answers from the passages of the returned document, streamed word by word, marked as offline', async () => {
    const doc = (await library.readReference('heart-health-education', 'cardiac-warning-signs.md'))!;
    const events = await collect(
      engine.stream(
        aProviderRequest()
          .asking('What are the warning signs of a heart attack?')
          .withSkills('heart-health-education')
          .withTools(readToolSpec)
          .withMessages(
            {
              role: 'assistant',
              content: '',
              toolCalls: [{ id: 'c1', name: 'read_skill_reference', arguments: {} }],
            },
            { role: 'tool', content: doc, toolCallId: 'c1', toolName: 'read_skill_reference' },
          )
          .build(),
      ),
    );
    expect(events[events.length - 1]).toEqual({ type: 'end', reason: 'stop' });
    const tokens = events.filter((e) => e.type === 'text');
    expect(tokens.length).toBeGreaterThan(20);
    const answer = text(events);
    expect(answer).toContain('chest discomfort');
    expect(answer).toContain('offline built-in engine');
    expect(answer).toContain('Warning signs: heart and circulation');
  });

  it('says clinical detail needs clinical mode when the read was refused, and still gives general guidance', async () => {
    const events = await collect(
      engine.stream(
        aProviderRequest()
          .asking('What are the warning signs of a heart attack?')
          .withSkills('heart-health-education')
          .withTools(readToolSpec)
          .withMessages({
            role: 'tool',
            content: 'read_skill_reference is not allowed: clinical references need allow_clinical',
            toolCallId: 'c1',
            toolName: 'read_skill_reference',
            isError: true,
          })
          .build(),
      ),
    );
    const answer = text(events);
    expect(answer).toContain('clinical information is switched on');
    expect(answer).toContain('Plain-language education about heart');
  });

  it('answers from the skill summaries when the agent has no read tool, without asking for one', async () => {
    const events = await collect(
      engine.stream(aProviderRequest().asking('I cannot sleep').withSkills('sleep-hygiene').build()),
    );
    expect(events.some((e) => e.type === 'tool_call')).toBe(false);
    expect(text(events)).toMatch(/sleep/i);
  });

  it('stops at once with an AbortError when the signal aborts mid-answer', async () => {
    const ctrl = new AbortController();
    const doc = (await library.readReference('sleep-hygiene', 'sleep-habits.md'))!;
    const seen: ProviderEvent[] = [];
    const err = await (async () => {
      const request = aProviderRequest()
        .asking('How do I build better sleep habits?')
        .withSkills('sleep-hygiene')
        .withMessages({ role: 'tool', content: doc, toolCallId: 'c1', toolName: 'read_skill_reference' })
        .withSignal(ctrl.signal)
        .build();
      for await (const e of engine.stream(request)) {
        seen.push(e);
        if (seen.length === 3) ctrl.abort();
      }
    })().catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(seen).toHaveLength(3);
  });
});

describe('built-in engine text helpers', () => {
  it('splits text into tokens that join back to the same text', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => /\S/.test(s)),
        (s) => {
          expect(toTokens(s).join('')).toBe(s);
        },
      ),
    );
  });

  it('tokenizes to lower-case words without stopwords or empty terms', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const t of tokenize(s)) {
          expect(t).toBe(t.toLowerCase());
          expect(t.length).toBeGreaterThan(0);
          expect(['the', 'and', 'of']).not.toContain(t);
        }
      }),
    );
    expect(tokenize('The Risks of Heart-Attacks')).toEqual(['risk', 'heart', 'attack']);
  });
});
