import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { SkillLibrary, SkillReference } from '../../../src/providers/skill-library';

/** The shipped starter workspace. */
export const WORKSPACE = path.join(__dirname, '..', '..', '..', 'workspace');

/**
 * A test-only SkillLibrary straight over the workspace files (the service itself uses the catalog's), so
 * engine tests run on the real skill documents without depending on the catalog's loader.
 */
export function fsSkillLibrary(root = WORKSPACE): SkillLibrary {
  const skillFile = (id: string) =>
    readFile(path.join(root, 'skills', id, 'SKILL.md'), 'utf8').catch(() => undefined);
  return {
    async listReferences(ids) {
      const out: SkillReference[] = [];
      for (const skill of ids) {
        const files = await readdir(path.join(root, 'skills', skill, 'references')).catch(
          () => [] as string[],
        );
        for (const reference of files.filter((f) => f.endsWith('.md')).sort()) {
          const text = await readFile(path.join(root, 'skills', skill, 'references', reference), 'utf8');
          out.push({ skill, reference, title: /^#\s+(.+)$/m.exec(text)?.[1] ?? reference });
        }
      }
      return out;
    },
    async readReference(skill, reference) {
      if (reference.includes('/') || reference.includes('..')) return undefined;
      return readFile(path.join(root, 'skills', skill, 'references', reference), 'utf8').catch(
        () => undefined,
      );
    },
    async readSkill(id) {
      const text = await skillFile(id);
      if (!text) return undefined;
      const description = /^description:\s*(.+)$/m.exec(text)?.[1] ?? '';
      return {
        description,
        body: text.replace(/^---[\s\S]*?\n---\n/, ''),
        clinical: /clinical:\s*true/.test(text),
      };
    },
  };
}
