#!/usr/bin/env node
// Lints deploy/compose.yaml (no compose engine here, ADR 0010): valid YAML with merge keys, the five services, every
// care service read-only, non-root, all capabilities dropped, built from its Dockerfile, ports on loopback only;
// PostgreSQL with pgvector; every ${VAR} the file reads documented in .env.example. Exits 1 on the first report.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const root = new URL('..', import.meta.url).pathname;
const text = readFileSync(join(root, 'deploy', 'compose.yaml'), 'utf8');
const compose = parse(text, { merge: true });
const problems = [];
const services = compose.services ?? {};
for (const name of ['postgres', 'redis', 'memory', 'care-consult', 'platform-auth']) {
  if (!services[name]) problems.push(`service ${name} is missing`);
}
if (!/^pgvector\/pgvector:/.test(services.postgres?.image ?? ''))
  problems.push('postgres must be the pgvector/pgvector image');
for (const name of ['memory', 'care-consult', 'platform-auth']) {
  const s = services[name] ?? {};
  if (s.read_only !== true) problems.push(`${name}: not read_only`);
  if (s.user !== '1000:1000') problems.push(`${name}: not the non-root user 1000`);
  if (!s.cap_drop?.includes('ALL')) problems.push(`${name}: capabilities not dropped`);
  if (!s.build?.dockerfile || !existsSync(join(root, s.build.dockerfile)))
    problems.push(`${name}: no Dockerfile build`);
  if (s.environment?.APP_PROFILES_ACTIVE !== 'prod') problems.push(`${name}: not the prod profile`);
  if (!/^postgres:\/\//.test(s.environment?.DATABASE_URI ?? ''))
    problems.push(`${name}: no PostgreSQL DATABASE_URI`);
  for (const p of s.ports ?? [])
    if (!String(p).startsWith('127.0.0.1:')) problems.push(`${name}: port ${p} is not on loopback`);
}
const documented = new Set(
  readFileSync(join(root, '.env.example'), 'utf8')
    .split('\n')
    .map((l) => /^([A-Z][A-Z0-9_]*)=/.exec(l)?.[1])
    .filter(Boolean),
);
for (const [, name] of text.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)) {
  if (!documented.has(name)) problems.push(`\${${name}} is not in .env.example`);
}
for (const p of problems) console.log(`compose: ${p}`);
if (problems.length) process.exit(1);
console.log('compose: deploy/compose.yaml and .env.example are consistent');
