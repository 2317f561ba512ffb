import fc from 'fast-check';
import { conversationOf, CONSULT_HISTORY_MESSAGES, TurnCollector } from '../../src/mcp/consult';

const msg = (role: 'user' | 'assistant', content: string) => ({ role, content });

describe('conversationOf', () => {
  it('appends one-exchange checkpoints and keeps a resent conversation once', () => {
    const a = [msg('user', 'q1'), msg('assistant', 'a1')];
    const b = [msg('user', 'q2'), msg('assistant', 'a2')];
    expect(conversationOf([{ messages: a }, { messages: b }])).toEqual([...a, ...b]);
    expect(conversationOf([{ messages: a }, { messages: [...a, ...b] }])).toEqual([...a, ...b]);
    expect(conversationOf([{ messages: [msg('user', 'q'), { role: 'system', content: 'x' }] }])).toEqual([
      msg('user', 'q'),
    ]);
  });

  it('never grows past the cap and keeps the newest messages', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom('u', 'a'), { maxLength: 6 }), { maxLength: 40 }),
        (turns) => {
          let n = 0;
          const checkpoints = turns.map((t) => ({
            messages: t.map((r) => msg(r === 'u' ? 'user' : 'assistant', `m${n++}`)),
          }));
          const out = conversationOf(checkpoints);
          expect(out.length).toBe(Math.min(n, CONSULT_HISTORY_MESSAGES));
          if (n > 0) expect(out.at(-1)!.content).toBe(`m${n - 1}`);
        },
      ),
    );
  });
});

describe('TurnCollector', () => {
  it('collects tokens, tools and the cited sources of the suggestions frame; skips malformed sources', () => {
    const c = new TurnCollector();
    c.emit({
      event: 'message',
      data: {
        type: 'message',
        role: 'assistant',
        thread_id: 't',
        checkpoint_id: 'c',
        agent_id: 'x',
        agent_name: 'X',
        routed: false,
        provider: 'p',
        model: 'm',
        offline: false,
      },
    });
    c.emit({ event: 'token', data: { type: 'token', content: 'Hello ' } });
    c.emit({
      event: 'tool_end',
      data: {
        type: 'tool_end',
        tool: 'read_skill_reference',
        duration_ms: 1,
        status: 'success',
        allowed: true,
        result: { bytes: 3 },
      },
    });
    c.emit({ event: 'token', data: { type: 'token', content: 'world [1]' } });
    const sources = [
      { n: 1, kind: 'skill', id: 'sleep-hygiene/basics.md', title: 'Basics' },
      { n: 0, kind: 'kb', id: 'x', title: 'bad' },
      'junk',
    ];
    c.emit({
      event: 'suggestions',
      data: { type: 'suggestions', items: ['More?'], suggestions: ['More?'], ...({ sources } as object) },
    });
    c.emit({ event: 'done', data: '[DONE]' });
    expect(c.finish()).toMatchObject({
      thread_id: 't',
      status: 'complete',
      answer: 'Hello world [1]',
      citations: [{ n: 1, kind: 'skill', id: 'sleep-hygiene/basics.md', title: 'Basics' }],
      suggestions: ['More?'],
      tools_used: [{ tool: 'read_skill_reference', status: 'success' }],
    });
  });

  it('reports an error frame as status error', () => {
    const c = new TurnCollector();
    c.emit({ event: 'error', data: { type: 'error', code: 'TURN_TIMEOUT', message: 'too long' } });
    expect(c.finish()).toMatchObject({
      status: 'error',
      error: { code: 'TURN_TIMEOUT', message: 'too long' },
    });
  });
});
