// Records build time and git commit next to the compiled code (dist/build-info.json) for /actuator/info.
// Images built without .git pass GIT_COMMIT (build arg or runtime env, which also wins at runtime).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const git = (...args) => {
  try {
    return (
      execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || null
    );
  } catch {
    return null;
  }
};
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const info = {
  version: pkg.version,
  time: new Date().toISOString(),
  git: {
    commit: process.env.GIT_COMMIT || git('rev-parse', 'HEAD') || 'unknown',
    branch: git('rev-parse', '--abbrev-ref', 'HEAD'),
    time: git('log', '-1', '--format=%cI'),
  },
};
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist', 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
