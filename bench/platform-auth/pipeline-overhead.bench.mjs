// Throughput of an authenticated, authorized request on a route that does no database work, with the real
// platform-auth access pipeline (path firewall, HS256 verification, scope map seeded from the migrations) in
// front, against the same Express app without the pipeline. Target: ratio >= 0.7 at 50 connections.
import { pathToFileURL } from 'node:url';
import { dist, fmt, jwt, kit, listen, load, openBenchDb, SECRET, table } from './common.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

function baseApp(withPipeline, db) {
  const logger = kit.createLogger({ name: 'bench', level: 'silent' });
  const app = kit.createServiceApp({
    logger,
    corsOrigins: ['*'],
    metrics: kit.createMetrics('bench', false),
  });
  if (withPipeline) {
    const verifier = kit.createAccessTokenVerifier({
      mode: 'builtin',
      secret: SECRET,
      issuer: 'care-platform',
      audience: 'care-platform',
    });
    const { accessControl } = dist('security/access-control.js');
    const { DbScopeMapSource } = dist('security/scope-map.repository.js');
    app.use(accessControl({ verifier, scopeMap: new DbScopeMapSource(db) }));
  }
  // No database work: the handler only reads the tenant context the pipeline built (when present).
  app.get('/api/v1/workflow/bench-noop', (req, res) =>
    res.json({ ok: true, tenantId: req.principal?.tenantId ?? null }),
  );
  return kit.finalizeApp(app);
}

/** Runs the benchmark; returns { ratio, markdown }. */
export async function runPipelineOverhead() {
  const db = await openBenchDb();
  const token = jwt.sign({ sub: 'u1', email: 'u1@example.test', tenantId: 'acme', roles: ['USER'] }, SECRET, {
    algorithm: 'HS256',
    issuer: 'care-platform',
    audience: 'care-platform',
    expiresIn: 3600,
  });
  const plain = await listen(baseApp(false, db));
  const guarded = await listen(baseApp(true, db));
  const path = '/api/v1/workflow/bench-noop';
  const headers = { authorization: `Bearer ${token}` };
  const check = await fetch(`${guarded.url}${path}`, { headers });
  if (check.status !== 200) throw new Error(`pipeline app answered ${check.status}`);
  if ((await fetch(`${guarded.url}${path}`)).status !== 403)
    throw new Error('anonymous call was not refused');
  await load({ url: `${plain.url}${path}`, duration: 2 });
  await load({ url: `${guarded.url}${path}`, headers, duration: 2 });
  const base = [];
  const auth = [];
  for (let i = 0; i < ROUNDS; i++) {
    base.push(await load({ url: `${plain.url}${path}`, duration: DURATION }));
    auth.push(await load({ url: `${guarded.url}${path}`, headers, duration: DURATION }));
  }
  await plain.close();
  await guarded.close();
  await db.close();
  const mean = (xs, k) => xs.reduce((a, x) => a + x[k], 0) / xs.length;
  const ratio = mean(auth, 'rps') / mean(base, 'rps');
  const markdown = [
    `### Access pipeline overhead (50 connections, ${ROUNDS} x ${DURATION} s each, interleaved)`,
    '',
    table(
      ['app', 'req/s (mean)', 'p50 ms', 'p99 ms'],
      [
        [
          'Express app without the auth pipeline (baseline)',
          fmt(mean(base, 'rps')),
          fmt(mean(base, 'p50'), 1),
          fmt(mean(base, 'p99'), 1),
        ],
        [
          'same app + platform-auth pipeline (HS256 + scope check)',
          fmt(mean(auth, 'rps')),
          fmt(mean(auth, 'p50'), 1),
          fmt(mean(auth, 'p99'), 1),
        ],
      ],
    ),
    '',
    `Throughput ratio pipeline / baseline: **${fmt(ratio, 2)}** (target >= 0.70: ${ratio >= 0.7 ? 'met' : 'NOT met'})`,
  ].join('\n');
  return { ratio, markdown };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { markdown } = await runPipelineOverhead();
  console.log(markdown);
}
