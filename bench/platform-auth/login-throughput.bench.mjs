// Login throughput over HTTP (POST /api/v1/auth/login through the full createApp, embedded database) against
// raw bcrypt.compare calls at the same cost and concurrency in the same process. Target: ratio >= 0.85.
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { bcrypt, dist, fmt, kit, listen, load, openBenchDb, SECRET, table } from './common.mjs';

// The production default cost: the ratio is bcrypt time over bcrypt time plus the fixed per-login work, so a
// cheaper cost would understate what a deployment sees.
const COST = Number(process.env.BENCH_BCRYPT_COST ?? 12);
const CONCURRENCY = Number(process.env.BENCH_LOGIN_CONNECTIONS ?? 8);
const DURATION = Number(process.env.BENCH_LOGIN_DURATION ?? 10);

async function rawCompare(hash, seconds) {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      await bcrypt.compare('bench-password-1', hash);
      done++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done / ((performance.now() - start) / 1000);
}

/** Runs the benchmark; returns { ratio, markdown }. */
export async function runLoginThroughput() {
  const { createApp } = dist('app.js');
  const { loadAuthConfig } = dist('config.js');
  const { bootstrapAdmin } = dist('users/bootstrap-admin.js');
  const { createPasswordHasher } = dist('auth/password-hasher.js');
  const { createAuditTrail } = dist('audit/audit.service.js');
  const db = await openBenchDb();
  const logger = kit.createLogger({ name: 'bench', level: 'silent' });
  const config = loadAuthConfig({ JWT_SECRET: SECRET, BCRYPT_COST: String(COST), LOGIN_MAX_IP_FAILURES: '100000', LOG_LEVEL: 'silent' });
  const hasher = createPasswordHasher(COST);
  const clock = () => new Date();
  await bootstrapAdmin({ db, hasher, audit: createAuditTrail(db, logger, clock), logger, clock }, { email: 'bench@example.test', password: 'bench-password-1', tenantId: 'platform' });
  const server = await listen(createApp({ config, logger, db, hasher, clock, metrics: kit.createMetrics('bench', false) }));
  const request = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.test', password: 'bench-password-1' }) };
  const check = await fetch(`${server.url}/api/v1/auth/login`, request);
  if (check.status !== 200) throw new Error(`login answered ${check.status}`);
  const hash = await bcrypt.hash('bench-password-1', COST);
  await rawCompare(hash, 1);
  await load({ url: `${server.url}/api/v1/auth/login`, ...request, connections: CONCURRENCY, duration: 2 });
  const raw1 = await rawCompare(hash, DURATION);
  const http1 = await load({ url: `${server.url}/api/v1/auth/login`, ...request, connections: CONCURRENCY, duration: DURATION });
  const raw2 = await rawCompare(hash, DURATION);
  const http2 = await load({ url: `${server.url}/api/v1/auth/login`, ...request, connections: CONCURRENCY, duration: DURATION });
  await server.close();
  await db.close();
  const raw = (raw1 + raw2) / 2;
  const logins = (http1.total + http2.total) / (2 * DURATION);
  const ratio = logins / raw;
  const markdown = [
    `### Login throughput (bcrypt cost ${COST}, concurrency ${CONCURRENCY}, 2 x ${DURATION} s each, interleaved)`,
    '',
    table(
      ['what', 'operations/s', 'p50 ms', 'p99 ms'],
      [
        ['raw bcrypt.compare (baseline)', fmt(raw, 1), '', ''],
        ['POST /api/v1/auth/login (HTTP, full app, embedded PGlite)', fmt(logins, 1), fmt((http1.p50 + http2.p50) / 2, 0), fmt((http1.p99 + http2.p99) / 2, 0)],
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
