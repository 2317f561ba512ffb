#!/usr/bin/env node
// Relay ticket resolutions per second on one core (InMemoryNonceStore) against the raw baseline measured in the
// same run: crypto.createHmac over the same payload segments. Prints a table and the ratio (target >= 0.5).
// Needs the built package: pnpm --filter @care/crypto run build. Bounded: ROUNDS x TICKETS operations per side.
//
// Fairness: both sides get the very same segment strings; tickets are handed over as the HTTP layer does (taken
// out of a parsed query string, so flat strings, not the concatenations issuance builds); JIT warm-up first, then
// the sides alternate round by round and the median of each is reported; the process is pinned to one CPU
// (taskset, Linux) so garbage collection cannot run on a second core. Load average is printed before and after.
import { spawnSync } from 'node:child_process';
import { createHash, createHmac, hash } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

// Re-run pinned to one CPU when taskset exists (BENCH_PINNED marks the child; BENCH_NO_PIN=1 skips pinning).
let pinnedTo = process.env.BENCH_PINNED ?? 'not pinned';
if (process.env.BENCH_PINNED === undefined && process.env.BENCH_NO_PIN !== '1') {
  const cpu = process.env.BENCH_CPU ?? String(availableParallelism() - 1);
  const child = spawnSync(
    'taskset',
    ['-c', cpu, process.execPath, ...process.execArgv, fileURLToPath(import.meta.url)],
    { stdio: 'inherit', env: { ...process.env, BENCH_PINNED: `CPU ${cpu} (taskset)` } },
  );
  if (child.error === undefined) process.exit(child.status ?? 1);
  pinnedTo = 'not pinned (taskset unavailable)';
}

const require = createRequire(import.meta.url);
let relay;
try {
  relay = require('../../packages/crypto/dist/index.js');
} catch {
  console.error('packages/crypto/dist is missing: run `pnpm --filter @care/crypto run build` first');
  process.exit(2);
}
const { InMemoryNonceStore, issueRelayTicket, resolveRelayTicket } = relay;

const TICKETS = Number(process.env.BENCH_TICKETS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const TARGET = 0.5;
const KEY = 'bench-relay-signing-key-0123456789abcdef';
const KEY_BYTES = Buffer.from(KEY, 'utf8');
const NOW = 1_700_000_000_000;
const now = () => NOW;
const keys = { current: KEY, previous: ['bench-relay-previous-key-0123456789abcdef'] };
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const loadBefore = load();

// Usual case: one runtime's callback for all tickets. Worst case: a different callback port on every ticket
// (the callback check cache never hits).
const issue = (i, cb) => {
  const { ticket } = issueRelayTicket(
    { uid: `user-${i}`, pid: 'profile-1', cid: 'connection-1', cb, ttlSeconds: 120 },
    keys,
    { now },
  );
  // As the callback route receives it: the `state` parameter of a parsed query string.
  return new URLSearchParams(`code=code-123&state=${ticket}`).get('state');
};
const tickets = Array.from({ length: TICKETS }, (_, i) => issue(i, 'http://127.0.0.1:8765/callback'));
const distinctCbTickets = Array.from({ length: TICKETS }, (_, i) =>
  issue(i, `http://127.0.0.1:${1024 + i}/callback`),
);
const segments = tickets.map((t) => t.slice(0, t.indexOf('.')));

// The baseline as the target defines it: createHmac with the configured key string, hex digest. A second
// reference row gives the key as bytes, as the relay itself does (converted once), which is cheaper.
function hmacRound(key) {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (const segment of segments) sink += createHmac('sha256', key).update(segment).digest('hex').length;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (sink !== segments.length * 64) throw new Error('baseline produced wrong digests');
  return segments.length / seconds;
}

// Reference only: the HMAC construction the relay itself uses (RFC 2104 as two one-shot crypto.hash calls over the
// precomputed padded key blocks, ADR 0503), so the table also shows what the rest of a resolution costs.
const pad = (byte) => {
  const block = Buffer.alloc(64);
  KEY_BYTES.copy(block);
  return block.map((b) => b ^ byte);
};
const innerPrefix = pad(0x36).toString('latin1');
const outerBlock = Buffer.concat([pad(0x5c), Buffer.alloc(32)]);
function oneShotRound() {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (const segment of segments) {
    outerBlock.write(hash('sha256', innerPrefix + segment, 'binary'), 64, 'binary');
    sink += hash('sha256', outerBlock, 'hex').length;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (sink !== segments.length * 64) throw new Error('one-shot reference produced wrong digests');
  return segments.length / seconds;
}
const check = segments[0];
outerBlock.write(
  createHash('sha256')
    .update(innerPrefix + check)
    .digest('binary'),
  64,
  'binary',
);
if (
  createHash('sha256').update(outerBlock).digest('hex') !==
  createHmac('sha256', KEY).update(check).digest('hex')
) {
  throw new Error('one-shot reference does not match createHmac');
}

async function resolveRound(tickets) {
  // A fresh store per round: every ticket is new to it, as in production.
  const consumedNonces = new InMemoryNonceStore({ now, maxEntries: TICKETS });
  let resolved = 0;
  const start = process.hrtime.bigint();
  for (const relayTicket of tickets) {
    const r = await resolveRelayTicket({
      relayTicket,
      authorizationCode: 'code-123',
      consumedNonces,
      keys,
      now,
    });
    if (r.stateless) resolved++;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (resolved !== tickets.length) throw new Error('some tickets did not resolve');
  return tickets.length / seconds;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Warm-up (JIT), then alternate the sides so machine noise hits them alike.
hmacRound(KEY);
hmacRound(KEY_BYTES);
oneShotRound();
await resolveRound(tickets);
await resolveRound(distinctCbTickets);
const hmac = [];
const hmacBytes = [];
const oneShot = [];
const resolve = [];
const resolveDistinct = [];
for (let i = 0; i < ROUNDS; i++) {
  hmac.push(hmacRound(KEY));
  resolve.push(await resolveRound(tickets));
  hmacBytes.push(hmacRound(KEY_BYTES));
  oneShot.push(oneShotRound());
  resolveDistinct.push(await resolveRound(distinctCbTickets));
}

const fmt = (n) => Math.round(n).toLocaleString('en-US').padStart(12);
const base = median(hmac);
const rows = [
  ['raw crypto.createHmac (same payload segment)', base],
  ['  same, key given as bytes (reference only)', median(hmacBytes)],
  ['  one-shot HMAC, as the relay does (ref.)', median(oneShot)],
  ['resolveRelayTicket + InMemoryNonceStore', median(resolve)],
  ['  same, a different callback URL per ticket', median(resolveDistinct)],
];
console.log(
  `relay ticket resolution, one core: ${pinnedTo} (node ${process.version}, ${availableParallelism()} cores seen)`,
);
console.log(
  `${TICKETS} tickets x ${ROUNDS} rounds, median ops/s, ratio against the raw HMAC of the same run`,
);
console.log('| measurement                                  |       ops/s | ratio |');
console.log('|----------------------------------------------|-------------|-------|');
for (const [name, ops] of rows)
  console.log(`| ${name.padEnd(44)} |${fmt(ops)} | ${(ops / base).toFixed(3)} |`);
const ratio = median(resolve) / base;
console.log(
  `ratio resolve / raw HMAC = ${ratio.toFixed(3)} (target >= ${TARGET}): ${ratio >= TARGET ? 'MET' : 'BELOW TARGET'}`,
);
console.log(
  `ratio against the bytes-key reference = ${(median(resolve) / median(hmacBytes)).toFixed(3)}; ` +
    `distinct callbacks = ${(median(resolveDistinct) / base).toFixed(3)}; ` +
    `against the relay's own one-shot HMAC = ${(median(resolve) / median(oneShot)).toFixed(3)}`,
);
console.log(`load average (1/5/15 min): before ${loadBefore}, after ${load()}`);
