import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { toIssues, type Static, type TSchema } from '@care/contracts';

/** Thrown when the environment does not satisfy a service's config schema; lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

// A separate ajv: config needs type coercion from env strings and defaults, request validation must not coerce.
const configAjv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: true, useDefaults: true });
addFormats(configAjv);

/** A cross-field rule; returns a problem text or nothing. */
export type ConfigRule<T> = (config: T) => string | undefined | null | false;

/**
 * Reads the variables a schema names from `env`, coerces, fills defaults, checks them and the extra rules,
 * and returns a frozen object. All problems are reported together so one restart fixes them all.
 */
export function loadConfig<S extends TSchema>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
  rules: ConfigRule<Static<S>>[] = [],
): Readonly<Static<S>> {
  const props = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(props)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const validateFn = configAjv.compile(schema);
  const problems: string[] = [];
  if (!validateFn(raw)) {
    for (const issue of toIssues(validateFn.errors)) {
      const name = issue.pointer.replace(/^\//, '') || 'config';
      // Never echo a value: a mistyped secret must not reach the logs.
      problems.push(`${name} ${issue.detail}`);
    }
  }
  if (!problems.length) {
    for (const rule of rules) {
      const p = rule(raw as Static<S>);
      if (p) problems.push(p);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(raw) as Readonly<Static<S>>;
}

/** Renders the schema as a Markdown table (variable, default, meaning) for a package README. */
export function configTable(schema: TSchema): string {
  const props =
    (schema as { properties?: Record<string, { description?: string; default?: unknown }> }).properties ?? {};
  const required = new Set((schema as { required?: string[] }).required ?? []);
  const rows = Object.entries(props).map(([k, p]) => {
    const def = p.default === undefined ? (required.has(k) ? 'required' : '—') : `\`${String(p.default)}\``;
    return `| \`${k}\` | ${def} | ${(p.description ?? '').replace(/\|/g, '\\|')} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** Splits a comma-separated list variable into trimmed non-empty entries. */
export function csv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Runs a service's config loader; on a {@link ConfigError} prints its message (every problem, no value) to stderr
 * and exits with status 1, so a misconfigured service stops at once with one readable message. Other errors are
 * rethrown.
 */
export function loadConfigOrExit<T>(
  load: () => T,
  io: { error(message: string): void; exit(code: number): never } = {
    error: (m) => console.error(m),
    exit: (code) => process.exit(code),
  },
): T {
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) {
      io.error(err.message);
      return io.exit(1);
    }
    throw err;
  }
}
