import { DOMAINS, type Domain } from '@care/contracts';
import {
  AGENT_STATUSES,
  AGENT_TOOLS,
  type AgentStatus,
  type SkillMetadata,
  type WorkspaceProblem,
} from './catalog.types';

/** Kebab-case ids: lower-case letters and digits in dash-separated words. */
export const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const TAG = /^[a-z0-9][a-z0-9 +&'./-]{0,47}$/;

/** Collects field problems of one file with a few typed readers; each reader reports and returns a fallback. */
export class FieldReader {
  readonly problems: WorkspaceProblem[] = [];

  constructor(
    private readonly data: Record<string, unknown>,
    private readonly file: string,
  ) {}

  /** Records an error on `field`. */
  error(field: string | undefined, message: string): void {
    this.problems.push({ severity: 'error', file: this.file, ...(field ? { field } : {}), message });
  }

  /** Records a warning on `field`; the package is still loaded. */
  warn(field: string, message: string): void {
    this.problems.push({ severity: 'warning', file: this.file, field, message });
  }

  /** True when no error was recorded. */
  get ok(): boolean {
    return !this.problems.some((p) => p.severity === 'error');
  }

  /** A required (or optional) non-empty string no longer than `max`. */
  string(
    field: string,
    opts: { max?: number; pattern?: RegExp; patternText?: string; optional?: boolean } = {},
  ): string {
    const v = this.data[field];
    if (v === undefined || v === null) {
      if (!opts.optional) this.error(field, 'is required');
      return '';
    }
    if (typeof v !== 'string' && typeof v !== 'number')
      return this.fail(field, `must be a string, got ${kind(v)}`, '');
    const s = String(v).trim();
    if (!s) return this.fail(field, 'must not be empty', '');
    if (opts.max && s.length > opts.max)
      return this.fail(field, `must be at most ${opts.max} characters`, '');
    if (opts.pattern && !opts.pattern.test(s))
      return this.fail(field, `must be ${opts.patternText ?? `like ${opts.pattern}`}`, '');
    return s;
  }

  /** One of a fixed list of values. */
  oneOf<T extends string>(field: string, values: readonly T[], optional = false): T | undefined {
    const s = this.string(field, { optional });
    if (!s) return undefined;
    if (!(values as readonly string[]).includes(s))
      return this.fail(field, `must be one of ${values.join(', ')}; got "${s}"`, undefined);
    return s as T;
  }

  /** A boolean (YAML true/false). */
  boolean(field: string, fallback?: boolean): boolean {
    const v = this.data[field];
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== 'boolean')
      return this.fail(
        field,
        v === undefined ? 'is required' : `must be true or false, got ${kind(v)}`,
        false,
      );
    return v;
  }

  /** A list of strings, each checked by `each` (returns a message when bad). */
  list(field: string, each: (s: string) => string | undefined, optional = false): string[] {
    const v = this.data[field];
    if (v === undefined || v === null) {
      if (!optional) this.error(field, 'is required (use [] for none)');
      return [];
    }
    if (!Array.isArray(v)) return this.fail(field, `must be a list, got ${kind(v)}`, []);
    const out: string[] = [];
    v.forEach((raw, i) => {
      // YAML reads a bare `988` as a number; a keyword list means the text.
      const item = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
      const msg = typeof item === 'string' ? each(item) : `must be a string, got ${kind(item)}`;
      if (msg) this.error(`${field}[${i}]`, msg);
      else if (!out.includes(item as string)) out.push(item as string);
    });
    return out;
  }

  /** Warns about keys the format does not define (likely typos); they are ignored. */
  unknownKeys(known: readonly string[]): void {
    for (const k of Object.keys(this.data))
      if (!known.includes(k)) this.warn(k, 'is not a known field and is ignored');
  }

  private fail<T>(field: string, message: string, fallback: T): T {
    this.error(field, message);
    return fallback;
  }
}

function kind(v: unknown): string {
  return Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v === 'object' ? 'a mapping' : typeof v;
}

const checkTag = (s: string) => (TAG.test(s) ? undefined : 'must be a lower-case keyword');
const checkId = (s: string) => (KEBAB.test(s) ? undefined : `"${s}" is not a kebab-case id`);

/** The validated fields of an agent manifest (cross-references to skills are checked by the loader). */
export interface AgentFields {
  id: string;
  name: string;
  description: string;
  domain?: Domain;
  category: string;
  status?: AgentStatus;
  skills: string[];
  tools: string[];
  tags: string[];
  clinical: boolean;
  version: string;
  /** Example requests the agent is meant for (routing describes the agent by them); optional. */
  examples: string[];
}

const AGENT_KEYS = [
  'id',
  'name',
  'description',
  'domain',
  'category',
  'status',
  'skills',
  'tools',
  'tags',
  'clinical',
  'version',
  'examples',
];
const MAX_EXAMPLES = 40;
const checkExample = (s: string) =>
  s.trim().length >= 3 && s.length <= 300 ? undefined : 'must be a request of 3 to 300 characters';

/** Reads and checks the front matter of `agents/<folder>/AGENT.md`. */
export function readAgentFields(r: FieldReader, folder: string): AgentFields {
  r.unknownKeys(AGENT_KEYS);
  const id = r.string('id', { pattern: KEBAB, patternText: 'kebab-case (a-z, 0-9, dashes)' });
  if (id && id !== folder) r.error('id', `must equal the folder name "${folder}", got "${id}"`);
  const domain = r.oneOf('domain', DOMAINS);
  const category = r.string('category', {
    max: 200,
    pattern: /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*){1,2}$/,
    patternText: 'a dot path <domain>.<category> or <domain>.<category>.<subcategory> of kebab-case segments',
  });
  if (category && domain && category.split('.')[0] !== domain) {
    r.error('category', `must start with the agent's domain "${domain}.", got "${category}"`);
  }
  return {
    id,
    name: r.string('name', { max: 120 }),
    description: r.string('description', { max: 500 }),
    domain,
    category,
    status: r.oneOf('status', AGENT_STATUSES),
    skills: r.list('skills', checkId),
    tools: r.list('tools', (s) =>
      (AGENT_TOOLS as readonly string[]).includes(s)
        ? undefined
        : `"${s}" is not a known tool (${AGENT_TOOLS.join(', ')})`,
    ),
    tags: r.list('tags', checkTag, true),
    clinical: r.boolean('clinical'),
    version: r.string('version', { pattern: SEMVER, patternText: 'a semantic version such as 1.0.0' }),
    examples: readExamples(r),
  };
}

function readExamples(r: FieldReader): string[] {
  const examples = r.list('examples', checkExample, true);
  if (examples.length > MAX_EXAMPLES)
    r.error('examples', `must list at most ${MAX_EXAMPLES} requests, got ${examples.length}`);
  return [...new Set(examples.map((e) => e.trim()))];
}

const SKILL_KEYS = ['name', 'description', 'license', 'compatibility', 'allowed-tools', 'metadata'];
const META_KEYS = ['domain', 'tags', 'version', 'clinical', 'status'];

/** Reads and checks the front matter of `skills/<folder>/SKILL.md` (Agent Skills format). */
export function readSkillFields(
  r: FieldReader,
  data: Record<string, unknown>,
  folder: string,
  file: string,
): { name: string; description: string; metadata: SkillMetadata } {
  r.unknownKeys(SKILL_KEYS);
  const name = r.string('name', {
    max: 64,
    pattern: KEBAB,
    patternText: 'kebab-case (a-z, 0-9, dashes), at most 64 characters',
  });
  if (name && name !== folder) r.error('name', `must equal the folder name "${folder}", got "${name}"`);
  const description = r.string('description', { max: 1024 });
  const raw = data.metadata;
  const metadata: SkillMetadata = { tags: [], clinical: false, status: 'active' };
  if (raw !== undefined && raw !== null) {
    if (typeof raw !== 'object' || Array.isArray(raw)) {
      r.error('metadata', 'must be a mapping');
    } else {
      const m = new FieldReader(raw as Record<string, unknown>, file);
      m.unknownKeys(META_KEYS);
      metadata.domain = m.oneOf('domain', DOMAINS, true);
      metadata.tags = m.list('tags', checkTag, true);
      metadata.version =
        m.string('version', {
          optional: true,
          pattern: SEMVER,
          patternText: 'a semantic version such as 1.0.0',
        }) || undefined;
      metadata.clinical = m.boolean('clinical', false);
      metadata.status = m.oneOf('status', ['active', 'template'] as const, true) ?? 'active';
      for (const p of m.problems) r.problems.push({ ...p, field: `metadata.${p.field}` });
    }
  }
  return { name, description, metadata };
}
