#!/usr/bin/env node
// Builds what is missing or stale (turbo's cache makes an up-to-date build a no-op of a second or two), then
// starts platform-auth (8080), care-consult (8000) and memory (7070) from their dist/ on embedded defaults: PGlite databases under .data/, the offline chat engine, the builtin embedding model. Dev secrets
// are generated once and kept in .data/dev-secrets.json so tokens survive a restart. Ctrl-C stops all three.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dataDir = join(root, '.data');
mkdirSync(dataDir, { recursive: true });
const secretsFile = join(dataDir, 'dev-secrets.json');
const secrets = existsSync(secretsFile) ? JSON.parse(readFileSync(secretsFile, 'utf8')) : {};
secrets.JWT_SECRET ??= randomBytes(48).toString('base64url');
secrets.RELAY_SIGNING_KEY ??= randomBytes(48).toString('base64url');
secrets.BOOTSTRAP_ADMIN_PASSWORD ??= randomBytes(12).toString('base64url');
// The memory service is never open, not even in dev (ADR 0007): a key is generated (also into an older secrets
// file) and handed to memory and to every caller of it.
secrets.MEMORY_API_KEY ??= randomBytes(32).toString('base64url');
const memoryApiKey = process.env.MEMORY_API_KEY ?? secrets.MEMORY_API_KEY;
writeFileSync(secretsFile, JSON.stringify(secrets, null, 2), { mode: 0o600 });

const host = '127.0.0.1';
const adminEmail = process.env.BOOTSTRAP_ADMIN_EMAIL ?? 'admin@care.local';
const common = {
  APP_PROFILES_ACTIVE: 'dev',
  JWT_SECRET: process.env.JWT_SECRET ?? secrets.JWT_SECRET,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
};
const services = [
  {
    name: 'memory',
    port: 7070,
    health: '/api/v1/system/health',
    env: { PORT: '7070', HOST: host, DATA_DIR: join(dataDir, 'memory'), API_KEY: memoryApiKey },
  },
  {
    name: 'care-consult',
    port: 8000,
    health: '/api/health',
    env: {
      PORT: '8000',
      DATA_DIR: join(dataDir, 'care-consult'),
      ATTACHMENTS_DIR: join(dataDir, 'care-consult', 'attachments'),
      RELAY_SIGNING_KEY: process.env.RELAY_SIGNING_KEY ?? secrets.RELAY_SIGNING_KEY,
      MEMORY_BASE_URL: `http://${host}:7070`,
      MEMORY_API_KEY: memoryApiKey,
    },
  },
  {
    name: 'platform-auth',
    port: 8080,
    health: '/actuator/health',
    env: {
      PORT: '8080',
      DATA_DIR: join(dataDir, 'platform-auth'),
      BOOTSTRAP_ADMIN_EMAIL: adminEmail,
      BOOTSTRAP_ADMIN_PASSWORD: process.env.BOOTSTRAP_ADMIN_PASSWORD ?? secrets.BOOTSTRAP_ADMIN_PASSWORD,
      CARE_CONSULT_URL: `http://${host}:8000`,
      MEMORY_BASE_URL: `http://${host}:7070`,
      MEMORY_API_KEY: memoryApiKey,
    },
  },
];

// The README promises that this one command builds everything: a fresh clone has no dist/ yet.
if (process.env.START_SKIP_BUILD !== '1') {
  const turbo = join(root, 'node_modules', '.bin', 'turbo');
  const filters = services.map((s) => `--filter=@care/${s.name}`);
  console.log('Building the three services and their packages (cached when up to date)...');
  const built = spawnSync(turbo, ['run', 'build', ...filters, '--output-logs=errors-only'], {
    cwd: root,
    stdio: 'inherit',
    env: { TURBO_TELEMETRY_DISABLED: '1', ...process.env },
  });
  if (built.status !== 0) {
    console.error(
      `The build failed (${built.error?.message ?? `exit ${built.status}`}); nothing was started.`,
    );
    process.exit(1);
  }
}

const children = [];
let stopping = false;
for (const svc of services) {
  const cwd = join(root, 'services', svc.name);
  if (!existsSync(join(cwd, 'dist', 'main.js'))) {
    console.error(
      `services/${svc.name}/dist/main.js is missing after the build: run "pnpm run build" to see why.`,
    );
    process.exit(1);
  }
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd,
    env: { ...process.env, ...common, ...svc.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `[${svc.name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream.on('data', (chunk) => {
      buf += chunk;
      const lines = buf.split('\n');
      buf = lines.pop();
      for (const line of lines) process.stdout.write(prefix + line + '\n');
    });
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${prefix}exited (${signal ?? code}); stopping the others`);
      stopAll(1);
    }
  });
  children.push(child);
}

function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 12000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(
    () => process.exit(code),
  );
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

async function waitHealthy(svc, deadline) {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://${host}:${svc.port}${svc.health}`);
      if (res.status < 500) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

const deadline = Date.now() + 120000;
const ready = await Promise.all(services.map((s) => waitHealthy(s, deadline)));
if (stopping) process.exit(1);
console.log('\nThe care platform is running (embedded databases, offline engines, no model keys):\n');
console.log('| service | listens on | health |\n|---|---|---|');
services.forEach((s, i) =>
  console.log(`| ${s.name} | http://${host}:${s.port} | ${s.health} ${ready[i] ? 'UP' : 'NOT READY'} |`),
);
console.log(`\nConsultation console: http://${host}:8000/console`);
console.log(`First admin: ${adminEmail} / password in .data/dev-secrets.json (BOOTSTRAP_ADMIN_PASSWORD)`);
console.log('Memory API key (X-API-Key): .data/dev-secrets.json (MEMORY_API_KEY)');
console.log('Press Ctrl-C to stop.\n');
