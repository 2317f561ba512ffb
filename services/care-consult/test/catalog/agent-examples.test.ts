import { FieldReader, readAgentFields } from '../../src/catalog/manifest.validation';

const manifest = (extra: Record<string, unknown>) => ({
  id: 'sleep-coach',
  name: 'Sleep Coach',
  description: 'Helps with sleep.',
  domain: 'wellness',
  category: 'wellness.sleep',
  status: 'active',
  skills: [],
  tools: [],
  clinical: false,
  version: '1.0.0',
  ...extra,
});

const read = (extra: Record<string, unknown>) => {
  const r = new FieldReader(manifest(extra), 'agents/sleep-coach/AGENT.md');
  return { fields: readAgentFields(r, 'sleep-coach'), problems: r.problems };
};

describe('agent front matter: examples (requests routing describes the agent by)', () => {
  it('is optional and reads as a trimmed list without duplicates', () => {
    expect(read({}).fields.examples).toEqual([]);
    const { fields, problems } = read({
      examples: ['  I cannot fall asleep ', 'I cannot fall asleep', 'Waking at 4am'],
    });
    expect(problems).toEqual([]);
    expect(fields.examples).toEqual(['I cannot fall asleep', 'Waking at 4am']);
  });

  it('refuses a non-list, a non-string, an empty or overlong request, and too many requests, naming the field', () => {
    expect(read({ examples: 'just one' }).problems).toEqual([
      expect.objectContaining({ severity: 'error', field: 'examples' }),
    ]);
    expect(read({ examples: [4242, 'ok request'] }).problems).toEqual([]);
    expect(read({ examples: [{ a: 1 }] }).problems).toEqual([
      expect.objectContaining({ field: 'examples[0]' }),
    ]);
    expect(read({ examples: ['  '] }).problems).toEqual([expect.objectContaining({ field: 'examples[0]' })]);
    expect(read({ examples: ['x'.repeat(301)] }).problems).toEqual([
      expect.objectContaining({ field: 'examples[0]' }),
    ]);
    const many = Array.from({ length: 41 }, (_v, i) => `request number ${i}`);
    expect(read({ examples: many }).problems).toEqual([
      expect.objectContaining({ field: 'examples', message: expect.stringContaining('at most 40') }),
    ]);
  });
});
