#!/usr/bin/env node
// The chart rules of ADR 0011-0013, checked on what helm renders (called by scripts/check-deploy.sh with the helm
// binary as argv[2]): safe defaults, what the values schema refuses, and that the default values start the service.
// Prints one line per failed rule and exits 1 when any failed.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const helm = process.argv[2];
const root = new URL('..', import.meta.url).pathname;
const SERVICES = {
  memory: { port: 7070, readiness: '/api/v1/system/health', secret: { API_KEY: 'k'.repeat(40) } },
  'care-consult': {
    port: 8000,
    readiness: '/api/health',
    secret: { JWT_SECRET: 'j'.repeat(48), RELAY_SIGNING_KEY: 'r'.repeat(48) },
    urls: { MEMORY_BASE_URL: 'http://memory:7070' },
  },
  'platform-auth': {
    port: 8080,
    readiness: '/actuator/health/readiness',
    secret: {
      JWT_SECRET: 'j'.repeat(48),
      BOOTSTRAP_ADMIN_EMAIL: 'admin@example.org',
      BOOTSTRAP_ADMIN_PASSWORD: 'p'.repeat(20),
    },
    urls: { CARE_CONSULT_URL: 'http://care-consult:8000', MEMORY_BASE_URL: 'http://memory:7070' },
  },
};
const SHARED = [
  '_helpers.tpl',
  'deployment.yaml',
  'configmap.yaml',
  'service.yaml',
  'pdb.yaml',
  'networkpolicy.yaml',
  'servicemonitor.yaml',
  'pvc.yaml',
  'secret.yaml',
  'hpa.yaml',
  'ingress.yaml',
  'serviceaccount.yaml',
  'tests/test-health.yaml',
];

let failed = 0;
const fail = (svc, msg) => {
  failed += 1;
  console.log(`${svc}: ${msg}`);
};

/** Renders the chart; returns the objects, or the error text when helm refused. */
function render(svc, sets = [], release = 'rel') {
  try {
    const out = execFileSync(
      helm,
      ['template', release, join(root, 'deploy', svc, 'chart'), ...sets.flatMap((s) => ['--set', s])],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    return {
      objects: parseAllDocuments(out)
        .map((d) => d.toJSON())
        .filter(Boolean),
    };
  } catch (err) {
    return { error: String(err.stderr || err.message) };
  }
}
const find = (objects, kind) => objects.filter((o) => o.kind === kind);
const container = (objects) => find(objects, 'Deployment')[0]?.spec.template.spec.containers[0];

for (const [svc, facts] of Object.entries(SERVICES)) {
  for (const file of SHARED) {
    const mine = readFileSync(join(root, 'deploy', svc, 'chart', 'templates', file), 'utf8');
    const ref = readFileSync(join(root, 'deploy', 'memory', 'chart', 'templates', file), 'utf8');
    if (mine !== ref)
      fail(svc, `templates/${file} differs from memory's copy (the shared templates must stay identical)`);
  }

  // Defaults: one replica, embedded database on a volume, no PDB, Recreate, process-only liveness, drain timing.
  const { objects, error } = render(svc, [], 'any-release-name');
  if (error) {
    fail(svc, `default values do not render: ${error}`);
    continue;
  }
  const deploy = find(objects, 'Deployment')[0];
  const c = container(objects);
  if (deploy.spec.replicas !== 1)
    fail(svc, `default replicas ${deploy.spec.replicas}, expected 1 (embedded database)`);
  if (deploy.spec.strategy?.type !== 'Recreate') fail(svc, 'embedded mode must use the Recreate strategy');
  if (find(objects, 'PodDisruptionBudget').length)
    fail(svc, 'a PodDisruptionBudget is rendered at one replica (blocks node drains)');
  if (!find(objects, 'PersistentVolumeClaim').length)
    fail(svc, 'embedded mode renders no PersistentVolumeClaim');
  if (c.livenessProbe.httpGet.path !== '/actuator/health/liveness')
    fail(svc, `liveness probes ${c.livenessProbe.httpGet.path}`);
  if (c.readinessProbe.httpGet.path !== facts.readiness)
    fail(svc, `readiness probes ${c.readinessProbe.httpGet.path}`);
  if (c.env?.some((e) => e.name === 'DATABASE_URI')) fail(svc, 'embedded mode must not read DATABASE_URI');
  const cm = find(objects, 'ConfigMap')[0].data;
  const grace = deploy.spec.template.spec.terminationGracePeriodSeconds;
  const preStop = Number(c.lifecycle?.preStop?.exec?.command?.[1]);
  const drainS = Math.ceil(Number(cm.SHUTDOWN_DRAIN_MS) / 1000);
  if (!(preStop >= 1) || cm.SHUTDOWN_DRAIN_MS !== '5000' || grace < preStop + drainS + 1)
    fail(
      svc,
      `preStop ${preStop} s + drain ${cm.SHUTDOWN_DRAIN_MS} ms do not fit the grace period ${grace} s`,
    );
  if (cm.TRUST_PROXY !== '1') fail(svc, `TRUST_PROXY is ${cm.TRUST_PROXY}, expected the value's default 1`);
  if (cm.MANAGEMENT_PORT !== '9464' || !c.ports.some((p) => p.name === 'metrics'))
    fail(svc, 'no metrics port');
  if (/(^|,)\s*\*\s*(,|$)/.test(cm.CORS_ALLOWED_ORIGINS ?? ''))
    fail(svc, 'CORS_ALLOWED_ORIGINS is * by default');
  for (const [k, v] of Object.entries(facts.urls ?? {})) {
    if (cm[k] !== v)
      fail(svc, `${k} is ${cm[k]} with release "any-release-name", expected the documented default ${v}`);
  }
  if (find(objects, 'Service')[0].metadata.name !== svc)
    fail(svc, 'the Service is not named after the chart by default');
  const test = find(objects, 'Pod').find((p) => p.metadata.annotations?.['helm.sh/hook'] === 'test');
  if (!test || !test.spec.containers[0].command.join(' ').includes(`:${facts.port}${facts.readiness}`))
    fail(svc, 'no helm test pod calling the health endpoint');
  const np = find(objects, 'NetworkPolicy')[0];
  const peers = np.spec.ingress.flatMap((r) => r.from);
  if (
    !peers.some((p) => p.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'ingress-nginx')
  )
    fail(svc, 'the NetworkPolicy does not admit the ingress namespace');
  const scrape = np.spec.ingress.find((r) => r.ports?.some((p) => p.port === 'metrics'));
  if (
    !scrape?.from.some(
      (p) => p.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring',
    )
  )
    fail(svc, 'the NetworkPolicy does not admit monitoring to the metrics port');
  if (find(objects, 'ServiceMonitor').length)
    fail(svc, 'ServiceMonitor rendered although disabled by default');

  // External database at three replicas: DATABASE_URI from the Secret, PDB, rolling update; restricted egress keeps DNS.
  const ext = render(svc, [
    'database.mode=external',
    'database.existingSecret=db',
    'replicaCount=3',
    'networkPolicy.egress.restrict=true',
    'metrics.serviceMonitor.enabled=true',
  ]);
  if (ext.error) fail(svc, `external mode does not render: ${ext.error}`);
  else {
    const uri = container(ext.objects).env?.find((e) => e.name === 'DATABASE_URI');
    if (uri?.valueFrom?.secretKeyRef?.name !== 'db')
      fail(svc, 'external mode does not read DATABASE_URI from the Secret');
    if (find(ext.objects, 'PodDisruptionBudget').length !== 1)
      fail(svc, 'no PodDisruptionBudget at three replicas');
    if (find(ext.objects, 'Deployment')[0].spec.strategy.type !== 'RollingUpdate')
      fail(svc, 'external mode should roll');
    const egress = find(ext.objects, 'NetworkPolicy')[0].spec.egress ?? [];
    if (!egress.some((r) => r.ports?.some((p) => p.port === 53 && p.protocol === 'UDP')))
      fail(svc, 'restricted egress lacks DNS');
    const sm = find(ext.objects, 'ServiceMonitor')[0];
    if (sm?.spec.endpoints[0].port !== 'metrics' || sm.spec.endpoints[0].path !== '/actuator/prometheus')
      fail(svc, 'ServiceMonitor does not scrape the metrics port');
  }

  // What the schema (or the templates) must refuse.
  const refused = [
    [['replicaCount=2'], 'two replicas on the embedded database'],
    [
      ['webConcurrency=2'],
      'two worker processes on the embedded database (care-consult; an unknown key elsewhere)',
    ],
    [['autoscaling.enabled=true'], 'autoscaling on the embedded database'],
    [['persistence.enabled=false'], 'the embedded database without a volume'],
    [['database.mode=external'], 'an external database without database.existingSecret'],
    [['config.CORS_ALLOWED_ORIGINS=*'], 'CORS_ALLOWED_ORIGINS=*'],
    [['probes.liveness.path=/api/health'], 'a liveness probe other than the process-only one'],
    [['config.DATABASE_URI=postgres://x'], 'DATABASE_URI in the plain config'],
    [['unknownKey=1'], 'an unknown key'],
    [['securityContext.readOnlyRootFilesystem=false'], 'a writable root filesystem'],
    [['podSecurityContext.runAsNonRoot=false'], 'a root pod'],
  ];
  for (const [sets, what] of refused) if (!render(svc, sets).error) fail(svc, `the chart accepted ${what}`);
}

// The default values start: run each built service with exactly the env the chart gives its container (ConfigMap +
// the test Secret), paths and ports moved to this machine, and wait for its readiness endpoint.
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
for (const [svc, facts] of Object.entries(SERVICES)) {
  const { objects, error } = render(svc);
  if (error) continue;
  const dataDir = mkdtempSync(join(tmpdir(), `chart-${svc}-`));
  const port = await freePort();
  const env = { PATH: process.env.PATH, ...find(objects, 'ConfigMap')[0].data, ...facts.secret };
  Object.assign(env, {
    PORT: String(port),
    MANAGEMENT_PORT: String(await freePort()),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });
  if (env.ATTACHMENTS_DIR) env.ATTACHMENTS_DIR = join(dataDir, 'attachments');
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: join(root, 'services', svc),
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  let exited = null;
  child.on('exit', (code) => (exited = code));
  const deadline = Date.now() + 180_000;
  let status = 0;
  while (Date.now() < deadline && exited === null) {
    status = await fetch(`http://127.0.0.1:${port}/actuator/health/liveness`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (status === 200)
    console.log(
      `${svc}: starts with the chart's default values (APP_PROFILES_ACTIVE=${env.APP_PROFILES_ACTIVE})`,
    );
  else fail(svc, `does not start with the chart's default values (exit ${exited}): ${stderr.slice(-600)}`);
  child.kill('SIGTERM');
  await new Promise((r) => (exited === null ? child.once('exit', r) : r()));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
