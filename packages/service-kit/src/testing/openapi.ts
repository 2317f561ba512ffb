import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MountedRoute } from '../route-list';

/** One finding of `redocly lint`. */
export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: string[];
}

/** Outcome of {@link lintOpenApi}. */
export interface LintResult {
  errors: number;
  warnings: number;
  problems: LintProblem[];
}

function findUp(start: string, name: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, name))) return path.join(dir, name);
    if (path.dirname(dir) === dir) throw new Error(`No ${name} above ${start}`);
  }
}

/**
 * Lints an OpenAPI document with `@redocly/cli lint` (resolved from the calling package, which pins it) and the
 * repository's `redocly.yaml`. Runs offline: telemetry and the update notice are turned off.
 */
export async function lintOpenApi(doc: unknown, fromDir = process.cwd()): Promise<LintResult> {
  const pkg = require.resolve('@redocly/cli/package.json', { paths: [fromDir] });
  const bin = path.join(path.dirname(pkg), 'bin', 'cli.js');
  const config = findUp(fromDir, 'redocly.yaml');
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(doc, null, 2));
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [bin, 'lint', file, '--config', config, '--format', 'json'],
        {
          env: {
            ...process.env,
            REDOCLY_TELEMETRY: 'off',
            REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
            NO_COLOR: '1',
          },
          maxBuffer: 64 * 1024 * 1024,
          timeout: 120_000,
        },
        // redocly exits 1 when it finds errors; the JSON report is on stdout either way
        (err, out, stderr) =>
          out.trim().startsWith('{')
            ? resolve(out)
            : reject(new Error(`redocly lint failed: ${String(err)} ${stderr}`)),
      );
    });
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: Array<{
        ruleId: string;
        severity: 'error' | 'warn';
        message: string;
        location?: Array<{ pointer?: string }>;
      }>;
    };
    return {
      errors: report.totals.errors,
      warnings: report.totals.warnings,
      problems: report.problems.map((p) => ({
        ruleId: p.ruleId,
        severity: p.severity,
        message: p.message,
        location: (p.location ?? []).map((l) => l.pointer ?? ''),
      })),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The operations of an OpenAPI document as `METHOD /path` with express-style parameters. */
function documentedOperations(doc: { paths?: Record<string, Record<string, unknown>> }): string[] {
  const ops: string[] = [];
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const m of Object.keys(item)) {
      if (['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'].includes(m)) {
        ops.push(`${m.toUpperCase()} ${p.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1')}`);
      }
    }
  }
  return ops.sort();
}

/**
 * Compares the routes an app really mounts ({@link listRoutes}) with a document. `undocumented`: routes missing
 * from the document, and path mounts (proxies, static files) with no documented operation at or below them.
 * `unmounted`: documented operations that no route serves, nor a mount on exactly that path, nor a mount with
 * no routes below it (a proxy).
 */
export function compareRoutes(
  routes: MountedRoute[],
  doc: { paths?: Record<string, Record<string, unknown>> },
): { undocumented: string[]; unmounted: string[] } {
  const documented = documentedOperations(doc);
  const norm = (p: string) => p.toLowerCase();
  const endpoints = routes.filter((r) => r.kind === 'route');
  const mounts = routes.filter((r) => r.kind === 'mount');
  const under = (op: string, prefix: string) => {
    const p = norm(op.slice(op.indexOf(' ') + 1));
    return p === norm(prefix) || p.startsWith(`${norm(prefix)}/`);
  };
  const undocumented = [
    ...endpoints
      .map((r) => `${r.method} ${r.path}`)
      .filter((op) => !documented.some((d) => norm(d) === norm(op))),
    ...mounts.filter((m) => !documented.some((d) => under(d, m.path))).map((m) => `${m.method} ${m.path}/**`),
  ];
  // A mount serves what lies below it only when no route is mounted there too (a proxy); a guard in front of a
  // router serves only through the router's routes. Any mount counts for an operation on its exact path.
  const terminal = mounts.filter((m) => !endpoints.some((r) => under(`${r.method} ${r.path}`, m.path)));
  const exact = (op: string, m: MountedRoute) => norm(op.slice(op.indexOf(' ') + 1)) === norm(m.path);
  const unmounted = documented.filter(
    (d) =>
      !endpoints.some((r) => norm(`${r.method} ${r.path}`) === norm(d)) &&
      !terminal.some((m) => under(d, m.path)) &&
      !mounts.some((m) => exact(d, m)),
  );
  return { undocumented: [...new Set(undocumented)].sort(), unmounted };
}
