import type { MemoryClient, RecalledMemory } from '@care/clients';
import { relevantPassage, searchKnowledgeBase, titleNamesQuestion } from '../../src/chat/grounding';
import type { ToolContext } from '../../src/tools/tool.types';

// The knowledge-base floor (ADRs 0422, 0423) on recalled passages with known scores: what the chat quotes and
// what it leaves out. The re-ranked score is recall's score plus 0.3 x the title's word match (none below).

const ctx = { tenantId: 't', signal: new AbortController().signal } as ToolContext;
const passage = (id: number, title: string, body: string, score: number): RecalledMemory =>
  ({
    id: `kb:doc-${id}:0`,
    text: `${title}\n\n${body}`,
    score,
    tags: ['kb', `kbdoc:doc-${id}`],
  }) as RecalledMemory;
const search = async (question: string, recalled: RecalledMemory[]) => {
  const client = { recall: async () => recalled } as unknown as MemoryClient;
  const frames: Array<{ event: string; data: unknown }> = [];
  const hits = await searchKnowledgeBase(client, ctx, question, (f) => frames.push(f));
  return { hits, frames };
};

const DYSLEXIA = passage(
  1,
  'What is (are) Dyslexia ?',
  'Dyslexia is a brain-based type of learning disability that specifically impairs reading.',
  0.5,
);

describe('knowledge-base floor', () => {
  it("quotes a chatty question's passage between the two floors when its document title names what the question names", async () => {
    const question =
      'my son is 9 and his teacher thinks he might be dyslexic. will he just grow out of it or does he need help?';
    const { hits, frames } = await search(question, [DYSLEXIA]);
    expect(hits.map((h) => h.id)).toEqual(['kb:doc-1:0']);
    expect(hits[0].score).toBeCloseTo(0.5);
    expect(frames.at(-1)).toMatchObject({
      event: 'tool_end',
      data: { result: { count: 1, passages: [{ title: 'What is (are) Dyslexia ?' }] } },
    });
  });

  it('leaves out a passage between the two floors whose title names nothing the question names (an off-topic question)', async () => {
    const { hits } = await search(
      'Our cat keeps being sick after eating dry food, should we switch brands?',
      [
        passage(
          2,
          'How to prevent Toxoplasmosis ?',
          'Avoid cleaning the litter box if you are pregnant.',
          0.55,
        ),
      ],
    );
    expect(hits).toEqual([]);
  });

  it('leaves out a passage whose title shares a word with an off-topic question when it scores below the lower floor', async () => {
    const { hits } = await search('What documents do I need to renew my passport for a child?', [
      passage(
        3,
        "What I need to know about My Child's Urinary Tract Infection",
        'A urinary tract infection is an infection in the urinary tract.',
        0.3,
      ),
    ]);
    expect(hits).toEqual([]);
  });

  it('quotes the top of the ranking down to the first passage that misses the floor, never one further down', async () => {
    const question = 'What documents do I need to renew my passport for a child?';
    const { hits } = await search(question, [
      passage(4, 'What is the risk for my pet for Rabies ?', 'Rabies is a deadly virus.', 0.55),
      passage(5, 'What I need to know about Diarrhea', 'Diarrhea is loose, watery stools.', 0.47),
    ]);
    expect(hits).toEqual([]);
    const both = await search('my 8 year old is dyslexic, what is it?', [
      DYSLEXIA,
      passage(6, 'What are the treatments for Dyslexia ?', 'Reading programmes.', 0.49),
      passage(7, 'What is (are) Autism ?', 'A developmental disability.', 0.48),
    ]);
    expect(both.hits.map((h) => h.id)).toEqual(['kb:doc-1:0', 'kb:doc-6:0']);
  });

  it('still quotes a passage above the upper floor with no title word in common', () => {
    expect(
      relevantPassage('Is there a jab so I do not get it?', {
        text: 'Shingles vaccine\n\nA vaccine.',
        rank: 0.6,
      }),
    ).toBe(true);
    expect(
      relevantPassage('Is there a jab so I do not get it?', {
        text: 'Shingles vaccine\n\nA vaccine.',
        rank: 0.57,
      }),
    ).toBe(false);
  });

  it('matches title words on their first five letters (derived forms, British and American spellings), not shorter stems', () => {
    expect(titleNamesQuestion('he might be dyslexic', DYSLEXIA.text)).toBe(true);
    expect(titleNamesQuestion('three days of diarrhoea', 'How to prevent Diarrhea ?\n\nWash hands.')).toBe(
      true,
    );
    expect(titleNamesQuestion('my cat is sick', 'What causes Cataract ?\n\nAge.')).toBe(false);
    expect(titleNamesQuestion('my cat is sick', 'Cat scratch disease\n\nA bacterial infection.')).toBe(true);
    expect(titleNamesQuestion('dyslexia', 'No title here, just a passage about dyslexia.')).toBe(false);
  });
});
