// Login throughput over HTTP (POST /api/v1/auth/login through the full createApp, embedded database) against
// raw bcrypt.compare calls at the same cost and concurrency in the same process. Target: ratio >= 0.85.
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { bcrypt, dist, fmt, kit, listen, load, openBenchDb, SECRET, table } from './common.mjs';

// The production default cost: the ratio is bcrypt time over bcrypt time plus the fixed per-login work, so a
// cheaper cost would understate what a deployment sees.
const COST = Number(process.env.BENCH_BCRYPT_COST ?? 12);
const CONCURRENCY = Number(process.env.BENCH_LOGIN_CONNECTIONS ?? 8);
const DURATION = Number(process.env.BENCH_LOGIN_DURATION ?? 12);
// Short interleaved rounds: on a shared machine the ambient load drifts more between long runs than within short ones.
const ROUNDS = Number(process.env.BENCH_LOGIN_ROUNDS ?? 3);

// Counted the way autocannon counts: operations completed inside the window, divided by the window (the same
// start-up ramp and the same loss of the operations still running at the end as the HTTP run).
async function rawCompare(hash, seconds) {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      await bcrypt.compare('bench-password-1', hash);
      if (performance.now() <= end) done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done / seconds;
}

/** Runs the benchmark; returns { ratio, markdown }. */
export async function runLoginThroughput() {
  const { createApp, createAppDeps } = dist('app.js');
  const { loadAuthConfig } = dist('config.js');
  const { bootstrapAdmin } = dist('users/bootstrap-admin.js');
  const { PasswordHasher } = dist('users/password-hasher.js');
  const { AuditTrail } = dist('audit/audit.service.js');
  const db = await openBenchDb();
  const logger = kit.createLogger({ name: 'bench', level: 'silent' });
  const config = loadAuthConfig({
    JWT_SECRET: SECRET,
    BCRYPT_COST: String(COST),
    LOGIN_MAX_IP_FAILURES: '100000',
    LOG_LEVEL: 'silent',
  });
  const hasher = new PasswordHasher(COST);
  const clock = () => new Date();
  await bootstrapAdmin(
    { db, hasher, audit: new AuditTrail({ db, logger, clock }), logger, clock },
    { email: 'bench@example.test', password: 'bench-password-1', tenantId: 'platform' },
  );
  const server = await listen(
    createApp(
      createAppDeps({ config, logger, db, hasher, clock, metrics: kit.createMetrics('bench', false) }),
    ),
  );
  const request = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.test', password: 'bench-password-1' }),
  };
  const check = await fetch(`${server.url}/api/v1/auth/login`, request);
  if (check.status !== 200) throw new Error(`login answered ${check.status}`);
  const hash = await bcrypt.hash('bench-password-1', COST);
  await rawCompare(hash, 1);
  await load({ url: `${server.url}/api/v1/auth/login`, ...request, connections: CONCURRENCY, duration: 2 });
  const raws = [];
  const https = [];
  const loginRun = () =>
    load({
      url: `${server.url}/api/v1/auth/login`,
      ...request,
      connections: CONCURRENCY,
      duration: DURATION,
    });
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate which one goes first: whichever follows the other was seen to profit on a shared machine.
    if (i % 2 === 0) {
      raws.push(await rawCompare(hash, DURATION));
      https.push(await loginRun());
    } else {
      https.push(await loginRun());
      raws.push(await rawCompare(hash, DURATION));
    }
  }
  await server.close();
  await db.close();
  const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
  const raw = mean(raws);
  const logins = mean(https.map((r) => r.total / DURATION));
  const ratio = logins / raw;
  const markdown = [
    `### Login throughput (bcrypt cost ${COST}, concurrency ${CONCURRENCY}, ${ROUNDS} x ${DURATION} s each, interleaved)`,
    '',
    table(
      ['what', 'operations/s', 'p50 ms', 'p99 ms'],
      [
        ['raw bcrypt.compare (baseline)', fmt(raw, 1), '', ''],
        ...raws.map((r, i) => [
          `  round ${i + 1}: raw / login`,
          `${fmt(r, 1)} / ${fmt(https[i].total / DURATION, 1)}`,
          '',
          '',
        ]),
        [
          'POST /api/v1/auth/login (HTTP, full app, embedded PGlite)',
          fmt(logins, 1),
          fmt(mean(https.map((r) => r.p50)), 0),
          fmt(mean(https.map((r) => r.p99)), 0),
        ],
      ],
    ),
    '',
    `Throughput ratio login / raw compare: **${fmt(ratio, 2)}** (target >= 0.85: ${ratio >= 0.85 ? 'met' : 'NOT met'})`,
  ].join('\n');
  return { ratio, markdown };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { markdown } = await runLoginThroughput();
  console.log(markdown);
}
