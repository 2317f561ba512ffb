#!/usr/bin/env node
// Every file a workspace package ships (its package.json `files`, apart from build output) must exist and reach the
// image build context: a `.dockerignore` pattern that drops one (say a trained model beside its evaluation sets)
// builds an image that fails at start-up. Patterns follow .dockerignore's rules as far as this repository uses
// them: `*` within a path segment, `**` across segments, a pattern matching a directory drops what is inside, `!`
// brings a path back. Run by scripts/check-deploy.sh; exits 1 naming each file that would be left out.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD_OUTPUT = new Set(['dist']);

const patterns = readFileSync(path.join(root, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => {
    const negate = l.startsWith('!');
    const body = (negate ? l.slice(1) : l).replace(/^\/+|\/+$/g, '');
    const source = body
      .split('/')
      .map((seg) =>
        seg === '**'
          ? '.*'
          : seg
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
      )
      .join('/')
      .replace(/\.\*\//g, '(?:.*/)?');
    return { negate, regex: new RegExp(`^${source}$`) };
  });

/** Whether .dockerignore leaves a repository path out of the build context (the last matching pattern wins). */
function ignored(file) {
  const parts = file.split('/');
  let out = false;
  for (const p of patterns) {
    // A pattern matches the path itself or one of its parent directories.
    const hit = parts.some((_, i) => p.regex.test(parts.slice(0, i + 1).join('/')));
    if (hit) out = !p.negate;
  }
  return out;
}

const problems = [];
for (const group of ['services', 'packages']) {
  for (const name of readdirSync(path.join(root, group))) {
    const manifest = path.join(root, group, name, 'package.json');
    if (!existsSync(manifest)) continue;
    const files = JSON.parse(readFileSync(manifest, 'utf8')).files ?? [];
    for (const entry of files) {
      if (BUILD_OUTPUT.has(entry)) continue;
      const rel = `${group}/${name}/${entry}`;
      if (!existsSync(path.join(root, rel)))
        problems.push(`${rel}: listed in package.json files but missing`);
      else if (ignored(rel)) problems.push(`${rel}: shipped by the package but dropped by .dockerignore`);
    }
  }
}
if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log('every shipped package file reaches the image build context');
