import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { FrontMatterError, parseFrontMatter } from './front-matter';
import { FieldReader, KEBAB, readAgentFields, readSkillFields } from './manifest.validation';
import type {
  AgentRecord,
  SkillRecord,
  SkillReference,
  WorkspaceContent,
  WorkspaceProblem,
} from './catalog.types';

/** Manifests and references larger than this are refused unread: the workspace is text, not a data store. */
const MAX_WORKSPACE_FILE_BYTES = 512 * 1024;

/**
 * Reads `agents/<id>/AGENT.md` and `skills/<id>/SKILL.md` (+ `references/*.md`) under `root`. Every problem
 * names the file and field; a package with an error is skipped, never fatal. Symbolic links are not
 * followed, so a workspace cannot pull files from outside its root.
 */
export async function loadWorkspace(root: string): Promise<WorkspaceContent> {
  const problems: WorkspaceProblem[] = [];
  const skills = new Map<string, SkillRecord>();
  const agents = new Map<string, AgentRecord>();
  for (const folder of await packageFolders(root, 'skills', problems)) {
    const skill = await loadSkill(root, folder, problems);
    if (skill) skills.set(skill.id, skill);
  }
  for (const folder of await packageFolders(root, 'agents', problems)) {
    const agent = await loadAgent(root, folder, skills, problems);
    if (agent) agents.set(agent.id, agent);
  }
  return { root, agents, skills, problems };
}

async function packageFolders(
  root: string,
  kind: 'agents' | 'skills',
  problems: WorkspaceProblem[],
): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path.join(root, kind), { withFileTypes: true });
  } catch {
    problems.push({
      severity: 'warning',
      file: `${kind}/`,
      message: `the folder is missing: no ${kind} loaded`,
    });
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    if (!e.isDirectory()) {
      if (!e.isFile() || e.name !== 'README.md') {
        problems.push({
          severity: 'warning',
          file: `${kind}/${e.name}`,
          message: 'ignored: only folders hold packages',
        });
      }
      continue;
    }
    if (!KEBAB.test(e.name)) {
      problems.push({
        severity: 'error',
        file: `${kind}/${e.name}/`,
        message: 'skipped: the folder name must be a kebab-case id',
      });
      continue;
    }
    out.push(e.name);
  }
  return out.sort();
}

async function readText(
  root: string,
  rel: string,
  problems: WorkspaceProblem[],
): Promise<string | undefined> {
  const full = path.join(root, rel);
  try {
    const st = await lstat(full);
    if (!st.isFile()) {
      problems.push({
        severity: 'error',
        file: rel,
        message: st.isSymbolicLink() ? 'symbolic links are not followed' : 'is not a regular file',
      });
      return undefined;
    }
    if (st.size > MAX_WORKSPACE_FILE_BYTES) {
      problems.push({
        severity: 'error',
        file: rel,
        message: `is larger than ${MAX_WORKSPACE_FILE_BYTES} bytes`,
      });
      return undefined;
    }
    return await readFile(full, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    problems.push({
      severity: 'error',
      file: rel,
      message: code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? 'error'})`,
    });
    return undefined;
  }
}

function parse(text: string, rel: string, problems: WorkspaceProblem[]) {
  try {
    return parseFrontMatter(text);
  } catch (err) {
    const msg = err instanceof FrontMatterError ? err.message : 'cannot be parsed';
    problems.push({ severity: 'error', file: rel, message: msg });
    return undefined;
  }
}

async function loadSkill(
  root: string,
  folder: string,
  problems: WorkspaceProblem[],
): Promise<SkillRecord | undefined> {
  const file = `skills/${folder}/SKILL.md`;
  const text = await readText(root, file, problems);
  const parsed = text === undefined ? undefined : parse(text, file, problems);
  if (!parsed) return undefined;
  const r = new FieldReader(parsed.data, file);
  const fields = readSkillFields(r, parsed.data, folder, file);
  if (!parsed.body) r.error(undefined, 'the body (the skill instructions) is empty');
  const references = await loadReferences(root, folder, r.problems);
  problems.push(...r.problems);
  if (!r.ok) return undefined;
  return { id: fields.name, ...fields, instructions: parsed.body, references, file };
}

async function loadReferences(
  root: string,
  folder: string,
  problems: WorkspaceProblem[],
): Promise<SkillReference[]> {
  const dir = `skills/${folder}/references`;
  let entries;
  try {
    entries = await readdir(path.join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  const refs: SkillReference[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.')) continue;
    const rel = `${dir}/${e.name}`;
    if (!e.isFile() || !/^[A-Za-z0-9][A-Za-z0-9._-]*\.md$/.test(e.name)) {
      problems.push({
        severity: 'warning',
        file: rel,
        message: 'ignored: references are *.md files one level deep',
      });
      continue;
    }
    const content = await readText(root, rel, problems);
    if (content === undefined) continue;
    const heading = /^#\s+(.+)$/m.exec(content);
    refs.push({
      name: e.name,
      path: `references/${e.name}`,
      title: heading ? heading[1].trim() : e.name.replace(/\.md$/, ''),
      bytes: Buffer.byteLength(content),
      content,
    });
  }
  return refs;
}

async function loadAgent(
  root: string,
  folder: string,
  skills: Map<string, SkillRecord>,
  problems: WorkspaceProblem[],
): Promise<AgentRecord | undefined> {
  const file = `agents/${folder}/AGENT.md`;
  const text = await readText(root, file, problems);
  const parsed = text === undefined ? undefined : parse(text, file, problems);
  if (!parsed) return undefined;
  const r = new FieldReader(parsed.data, file);
  const f = readAgentFields(r, folder);
  f.skills.forEach((id, i) => {
    const skill = skills.get(id);
    if (!skill) r.error(`skills[${i}]`, `names the skill "${id}", which is not loaded (missing or invalid)`);
    else if (skill.metadata.status === 'template') r.error(`skills[${i}]`, `names "${id}", a template skill`);
  });
  if (!parsed.body) r.error(undefined, 'the body (the persona) is empty');
  problems.push(...r.problems);
  if (!r.ok || !f.domain || !f.status) return undefined;
  return { ...f, domain: f.domain, status: f.status, persona: parsed.body, file };
}
