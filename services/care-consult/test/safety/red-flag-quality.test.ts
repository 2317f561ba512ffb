import { RED_FLAG_CATEGORIES, loadLabelledFile, scoreDetector, type LabelledCase } from '../../src/safety';

// The labelled set is the contract the detector is tuned against; the holdout is only checked for shape
// here (its numbers are reported by bench/red-flags/quality.mjs, never asserted, so nobody tunes to it).

const TARGET_RECALL = 0.98;
const TARGET_FALSE_POSITIVE_RATE = 0.03;

describe('red-flag detector on the labelled set', () => {
  let labelled: LabelledCase[];
  beforeAll(() => {
    labelled = loadLabelledFile('labelled.jsonl');
  });

  it('ships at least 420 labelled messages, at least half of them hard negatives', () => {
    expect(labelled.length).toBeGreaterThanOrEqual(420);
    const negatives = labelled.filter((c) => c.label === null);
    expect(negatives.length * 2).toBeGreaterThanOrEqual(labelled.length);
    const notes = new Set(negatives.map((c) => c.note));
    for (const kind of ['negation', 'history', 'education', 'idiom', 'hypothetical', 'look-alike']) {
      expect(notes).toContain(kind);
    }
  });

  it('covers every category with several phrasings, including informal or misspelled ones', () => {
    for (const category of RED_FLAG_CATEGORIES) {
      const cases = labelled.filter((c) => c.label === category);
      expect({ category, enough: cases.length >= 10 }).toEqual({ category, enough: true });
    }
    const informal = labelled.filter((c) => c.label !== null && /misspelled|informal/.test(c.note ?? ''));
    expect(informal.length).toBeGreaterThanOrEqual(RED_FLAG_CATEGORIES.length);
  });

  it(`fires on at least ${TARGET_RECALL * 100}% of emergencies and on at most ${TARGET_FALSE_POSITIVE_RATE * 100}% of non-emergencies`, () => {
    const report = scoreDetector(labelled);
    const missed = report.misses.filter((m) => m.label !== null && m.predicted === null).map((m) => m.text);
    const falseAlarms = report.misses.filter((m) => m.label === null).map((m) => m.text);
    // On failure the offending messages are printed, which is what one needs to fix a cue.
    expect(report.recall >= TARGET_RECALL ? [] : missed).toEqual([]);
    expect(report.falsePositiveRate <= TARGET_FALSE_POSITIVE_RATE ? [] : falseAlarms).toEqual([]);
  });

  it('names the labelled category on at least 95% of emergencies, and keeps every category above 90% recall', () => {
    const report = scoreDetector(labelled);
    expect(report.categoryAccuracy).toBeGreaterThanOrEqual(0.95);
    for (const score of report.perCategory) {
      expect({ category: score.category, ok: score.recall >= 0.9 }).toEqual({
        category: score.category,
        ok: true,
      });
    }
  });

  it('keeps a held-out set of at least 80 messages, never used for tuning, in the same format', () => {
    const holdout = loadLabelledFile('holdout.jsonl');
    expect(holdout.length).toBeGreaterThanOrEqual(80);
    const seen = new Set(labelled.map((c) => c.text.toLowerCase()));
    expect(holdout.filter((c) => seen.has(c.text.toLowerCase()))).toEqual([]);
    expect(new Set(holdout.map((c) => c.label)).size).toBe(RED_FLAG_CATEGORIES.length + 1);
  });
});
