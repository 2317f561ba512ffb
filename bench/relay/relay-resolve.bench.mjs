#!/usr/bin/env node
// Relay ticket resolutions per second on one core (InMemoryNonceStore) against the raw baseline measured in the
// same run: crypto.createHmac over the same payload segments. Prints a table and the ratio (target >= 0.5).
// Needs the built package: pnpm --filter @care/crypto run build. Bounded: ROUNDS x TICKETS operations per side.
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';

const require = createRequire(import.meta.url);
const { InMemoryNonceStore, issueRelayTicket, resolveRelayTicket } = require('../../packages/crypto/dist/index.js');

const TICKETS = Number(process.env.BENCH_TICKETS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const TARGET = 0.5;
const KEY = 'bench-relay-signing-key-0123456789abcdef';
const NOW = 1_700_000_000_000;
const now = () => NOW;
const keys = { current: KEY, previous: ['bench-relay-previous-key-0123456789abcdef'] };

const tickets = Array.from({ length: TICKETS }, (_, i) =>
  issueRelayTicket(
    { uid: `user-${i}`, pid: 'profile-1', cid: 'connection-1', cb: 'http://127.0.0.1:8765/callback', ttlSeconds: 120 },
    keys,
    { now },
  ).ticket,
);
const segments = tickets.map((t) => t.slice(0, t.indexOf('.')));

function hmacRound() {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (const segment of segments) sink += createHmac('sha256', KEY).update(segment).digest('hex').length;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (sink !== segments.length * 64) throw new Error('baseline produced wrong digests');
  return segments.length / seconds;
}

async function resolveRound() {
  // A fresh store per round: every ticket is new to it, as in production.
  const consumedNonces = new InMemoryNonceStore({ now, maxEntries: TICKETS });
  let resolved = 0;
  const start = process.hrtime.bigint();
  for (const relayTicket of tickets) {
    const r = await resolveRelayTicket({ relayTicket, authorizationCode: 'code-123', consumedNonces, keys, now });
    if (r.stateless) resolved++;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (resolved !== tickets.length) throw new Error('some tickets did not resolve');
  return tickets.length / seconds;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Warm-up (JIT), then alternate the two sides so machine noise hits both alike.
hmacRound();
await resolveRound();
const hmac = [];
const resolve = [];
for (let i = 0; i < ROUNDS; i++) {
  hmac.push(hmacRound());
  resolve.push(await resolveRound());
}

const fmt = (n) => Math.round(n).toLocaleString('en-US').padStart(12);
const ratio = median(resolve) / median(hmac);
console.log(`relay ticket resolution, 1 core (node ${process.version}, ${availableParallelism()} cores seen)`);
console.log(`${TICKETS} tickets x ${ROUNDS} rounds, median ops/s`);
console.log('| measurement                                  |       ops/s |');
console.log('|----------------------------------------------|-------------|');
console.log(`| raw crypto.createHmac (same payload segment) |${fmt(median(hmac))} |`);
console.log(`| resolveRelayTicket + InMemoryNonceStore      |${fmt(median(resolve))} |`);
console.log(`ratio resolve / raw HMAC = ${ratio.toFixed(3)} (target >= ${TARGET}): ${ratio >= TARGET ? 'PASS' : 'BELOW TARGET'}`);
process.exitCode = ratio >= TARGET ? 0 : 1;
