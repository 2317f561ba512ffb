import fc from 'fast-check';
import { RED_FLAG_ADVICE, RED_FLAG_CATEGORIES } from '../../src/safety';
import { ALL_CUES } from '../../src/safety/red-flag-detector';
import { normalizeMessage } from '../../src/safety/red-flag-normalize';
import { CATEGORY_PRIORITY, CATEGORY_RULES } from '../../src/safety/red-flag-rules';
import { correctToken, withinOneEdit } from '../../src/safety/red-flag-typos';

describe('red-flag cue and rule tables', () => {
  it('gives every cue a unique feature id and at least one gating stem', () => {
    const ids = ALL_CUES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ALL_CUES.filter((c) => c.stems.length === 0 || c.stems.some((s) => s.length === 0))).toEqual([]);
  });

  it('only refers, in rules, to features some cue produces', () => {
    const ids = new Set(ALL_CUES.map((c) => c.id));
    const unknown = CATEGORY_RULES.flatMap((r) => r.all.flat()).filter((f) => !ids.has(f));
    expect(unknown).toEqual([]);
  });

  it('has a rule, a priority and category-specific advice for every category', () => {
    expect([...CATEGORY_PRIORITY].sort()).toEqual([...RED_FLAG_CATEGORIES].sort());
    for (const category of RED_FLAG_CATEGORIES) {
      expect(CATEGORY_RULES.some((r) => r.category === category)).toBe(true);
      expect(RED_FLAG_ADVICE[category]).toMatch(/911 in the US, 112 in Europe/);
    }
    expect(new Set(Object.values(RED_FLAG_ADVICE)).size).toBe(RED_FLAG_CATEGORIES.length);
  });
});

describe('red-flag normalisation and typo tolerance', () => {
  it('splits sentences and clauses where scope changes, and keeps decimals and units apart', () => {
    const norm = normalizeMessage("No chest pain, but I can't breathe. Temp 38.5C! It's my dad's 2nd day");
    expect(norm.text).toBe('no chest pain / i cannot breathe | temp 38.5 c | it is my dad is 2 nd day');
    expect(norm.sentences).toHaveLength(3);
    expect(norm.clauses).toHaveLength(4);
  });

  it('runs a one- or two-word fragment into the next sentence, but not an answer like "No."', () => {
    expect(normalizeMessage("Can't. Breathe.").text).toBe('cannot breathe');
    expect(normalizeMessage('No. I am fine').text).toBe('no | i am fine');
  });

  it('corrects one-edit typos of long medical words but never a protected real word or a short word', () => {
    expect(correctToken('unconsious')).toBe('unconscious');
    expect(correctToken('seizrue')).toBe('seizure');
    expect(correctToken('breeding')).toBe('breeding');
    expect(correctToken('overdone')).toBe('overdone');
    expect(correctToken('strike')).toBe('strike');
    expect(correctToken('constructor')).toBe('constructor');
  });

  it('agrees with a reference edit distance on whether two words are at most one edit apart', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 6 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(withinOneEdit(a, b)).toBe(damerau(a, b) <= 1);
      }),
      { numRuns: 500 },
    );
  });
});

// Optimal-string-alignment distance, the textbook dynamic programme, as the oracle.
function damerau(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
