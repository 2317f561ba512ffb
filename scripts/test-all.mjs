#!/usr/bin/env node
// Runs every check of the monorepo in order (build, typecheck, lint, all test suites) and ends with one
// plain total line "N passed, N failed" summed over every package's jest results.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const workspaces = ['packages', 'services', 'tests']
  .flatMap((dir) => readdirSync(join(root, dir)).map((name) => join(root, dir, name)))
  .filter((dir) => existsSync(join(dir, 'package.json')));
const withTests = workspaces.filter(
  (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.test,
);

for (const [name, hint] of [
  ['TEST_DATABASE_URI', 'PostgreSQL server tests'],
  ['TEST_REDIS_URL', 'Redis tests'],
]) {
  if (!process.env[name])
    console.warn(`NOTICE: ${name} is not set: ${hint} will be skipped (each prints why).`);
}

function run(args) {
  console.log(`\n$ turbo ${args.join(' ')}`);
  return spawnSync('pnpm', ['exec', 'turbo', ...args], { stdio: 'inherit', cwd: root }).status ?? 1;
}

for (const dir of withTests) rmSync(join(dir, '.jest-results.json'), { force: true });
let failedSteps = 0;
// The format and duplication checks do not hold the build and the suites back: they count at the end.
let failedChecks = 0;

// Formatting is checked, not fixed: `pnpm format` writes it (.prettierrc, .prettierignore).
console.log('\n$ prettier --check .');
if (
  spawnSync('pnpm', ['exec', 'prettier', '--check', '--log-level', 'warn', '.'], {
    stdio: 'inherit',
    cwd: root,
  }).status !== 0
) {
  console.log('prettier: the files above are not formatted; run `pnpm format`.');
  failedChecks++;
}

// What an uncommitted change writes again (the tool library's `duplicates`, where the machine has it): a change
// may not add a second copy of code that exists. On a clean checkout there is no change and nothing to pair.
const duplicates = spawnSync('duplicates', ['--change'], { cwd: root, encoding: 'utf8' });
if (duplicates.error) {
  console.log('\nNOTICE: `duplicates` is not on this machine: the new-duplication check is skipped.');
} else {
  console.log(`\n$ duplicates --change\n${duplicates.stdout.trim()}`);
  if (/^D\d+ /m.test(duplicates.stdout)) {
    console.log('duplicates: the uncommitted change repeats code listed above; share it instead.');
    failedChecks++;
  }
}
if (run(['run', 'build']) !== 0) failedSteps++;
if (failedSteps === 0 && run(['run', 'typecheck', 'lint', '--continue']) !== 0) failedSteps++;
if (failedSteps === 0 && run(['run', 'test', '--continue', '--concurrency=2']) !== 0) failedSteps++;
failedSteps += failedChecks;

/**
 * Each failed test (or suite that did not run) with the first lines of its message: CI keeps only the end of the
 * output, so the names of what failed are printed again there.
 */
function failuresOf(name, results) {
  const out = [];
  for (const suite of results.testResults ?? []) {
    const file = suite.name ? suite.name.slice(root.length) : '?';
    const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests)
      out.push({ where: `${name} ${file}: ${t.fullName}`, message: (t.failureMessages ?? []).join('\n') });
    if (failedTests.length === 0 && suite.status === 'failed')
      out.push({ where: `${name} ${file}: the suite did not run`, message: suite.message ?? '' });
  }
  return out;
}

const failures = [];
let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
for (const dir of withTests) {
  const name = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name;
  const file = join(dir, '.jest-results.json');
  if (!existsSync(file)) {
    rows.push([name, '-', '-', '-', 'no results (suite did not run)']);
    failed++;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  failures.push(...failuresOf(name, r));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  rows.push([
    name,
    r.numPassedTests,
    r.numFailedTests,
    r.numPendingTests,
    r.numRuntimeErrorTestSuites ? `${r.numRuntimeErrorTestSuites} suites failed to run` : '',
  ]);
}
console.log('\n| package | passed | failed | skipped | note |\n|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
if (failures.length) {
  console.log('\nWhat failed:');
  for (const f of failures) {
    // Stack frames and colour codes dropped; the first lines say what was expected.
    const lines = f.message
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^\s+at /.test(line))
      .slice(0, 8);
    console.log(`- ${f.where}\n${lines.map((line) => `    ${line}`).join('\n')}`);
  }
}
if (failedSteps) console.log(`\n${failedSteps} step(s) before or during the tests failed (see above).`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || failedSteps > 0 ? 1 : 0);
