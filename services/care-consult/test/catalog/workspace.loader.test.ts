import path from 'node:path';
import fc from 'fast-check';
import { FrontMatterError, parseFrontMatter } from '../../src/catalog/front-matter';
import { loadWorkspace } from '../../src/catalog/workspace.loader';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'workspace');

describe('workspace loader on the fixture workspace', () => {
  let content: Awaited<ReturnType<typeof loadWorkspace>>;
  beforeAll(async () => {
    content = await loadWorkspace(FIXTURE);
  });

  it('loads every valid agent, including system helpers and templates, with its persona', () => {
    expect([...content.agents.keys()].sort()).toEqual([
      'after-hours-nurse',
      'cbt-coach',
      'insurance-guide',
      'router',
      'shift-work-sleep',
      'sleep-coach',
      'specialist-template',
      'stress-coach',
      'symptom-checker',
    ]);
    const coach = content.agents.get('sleep-coach')!;
    expect(coach).toMatchObject({
      domain: 'wellness',
      category: 'wellness.sleep',
      status: 'active',
      skills: ['sleep-hygiene'],
      clinical: false,
    });
    expect(coach.persona).toMatch(/^You are the Sleep Coach/);
    expect(content.agents.get('router')!.status).toBe('system');
  });

  it('loads skills with their reference documents (title, size, text) and marks the template', () => {
    const sleep = content.skills.get('sleep-hygiene')!;
    expect(sleep.references.map((r) => [r.path, r.title])).toEqual([
      ['references/routine.md', 'Building a sleep routine'],
      ['references/when-to-see-someone.md', 'When to see someone'],
    ]);
    expect(sleep.references[0].bytes).toBe(Buffer.byteLength(sleep.references[0].content));
    expect(content.skills.get('skill-template')!.metadata.status).toBe('template');
  });

  it('skips each broken package with an error naming its file and field', () => {
    const errors = content.problems.filter((p) => p.severity === 'error');
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          file: 'agents/bad-domain/AGENT.md',
          field: 'domain',
          message: expect.stringContaining('astrology'),
        }),
        expect.objectContaining({
          file: 'agents/missing-skill/AGENT.md',
          field: 'skills[0]',
          message: expect.stringContaining('no-such-skill'),
        }),
        expect.objectContaining({
          file: 'agents/no-front-matter/AGENT.md',
          message: expect.stringContaining('front matter'),
        }),
        expect.objectContaining({
          file: 'skills/broken-skill/SKILL.md',
          field: 'description',
          message: 'is required',
        }),
      ]),
    );
    expect(content.agents.has('bad-domain')).toBe(false);
    expect(content.skills.has('broken-skill')).toBe(false);
  });
});

describe('front matter', () => {
  it('reports invalid YAML with its line in the file', () => {
    expect(() => parseFrontMatter('---\nid: a\nname: [unclosed\n---\nbody')).toThrow(/invalid YAML.*line/);
  });

  it('refuses a front matter that is not a mapping', () => {
    expect(() => parseFrontMatter('---\n- a\n- b\n---\nbody')).toThrow(/mapping/);
  });

  it('never fails with anything but a FrontMatterError, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (body) => {
        try {
          const r = parseFrontMatter(`---\n${body}\n---\nbody`);
          expect(typeof r.data).toBe('object');
        } catch (err) {
          expect(err).toBeInstanceOf(FrontMatterError);
        }
      }),
    );
  });
});
