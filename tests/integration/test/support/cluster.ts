import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** One running service process. */
export interface ServiceProcess {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process printed (stdout and stderr), for secret-leak checks. */
  output: string[];
}

/** The three services started as real processes on loopback. */
export interface Cluster {
  auth: ServiceProcess;
  consult: ServiceProcess;
  memory: ServiceProcess;
  admin: { email: string; password: string; tenantId: string };
  secrets: { jwt: string; relay: string; memoryKey: string };
  /** SIGTERM to every process; resolves with each exit code. */
  stop(): Promise<Record<string, number | null>>;
}

const repo = path.resolve(__dirname, '..', '..', '..', '..');

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts one built service (`services/<name>/dist/main.js`) as a child process on `port`. */
export function startService(name: string, port: number, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: path.join(repo, 'services', name),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: String(port),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (c) => output.push(String(c)));
  child.stderr!.on('data', (c) => output.push(String(c)));
  return { name, port, url: `http://127.0.0.1:${port}`, child, output };
}

/** Resolves once `healthPath` answers below 500; rejects when the process exits or the time is up. */
export async function waitFor(svc: ServiceProcess, healthPath: string, timeoutMs = 90000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (svc.child.exitCode !== null) throw new Error(`${svc.name} exited early:\n${svc.output.join('')}`);
    try {
      const res = await fetch(svc.url + healthPath);
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${svc.name} did not become healthy:\n${svc.output.join('')}`);
}

/** Extra environment per service. */
export type ClusterEnv = Partial<Record<'auth' | 'consult' | 'memory', Record<string, string>>>;

/**
 * Starts memory, care-consult and platform-auth wired to each other, each on an ephemeral PGlite. `extra` is
 * either the extra environment or a function of the three services' URLs (for settings that name another
 * service, such as the console's platform-auth URL or platform-auth's allowed browser origins).
 */
export async function startCluster(
  extra: ClusterEnv | ((urls: { auth: string; consult: string; memory: string }) => ClusterEnv) = {},
): Promise<Cluster> {
  const [pa, pc, pm] = await Promise.all([freePort(), freePort(), freePort()]);
  const url = (port: number) => `http://127.0.0.1:${port}`;
  const extraEnv =
    typeof extra === 'function' ? extra({ auth: url(pa), consult: url(pc), memory: url(pm) }) : extra;
  const secrets = {
    jwt: randomBytes(48).toString('base64url'),
    relay: randomBytes(48).toString('base64url'),
    memoryKey: randomBytes(32).toString('base64url'),
  };
  const admin = {
    email: 'admin@clinic.test',
    password: `Adm1n-${randomBytes(9).toString('base64url')}`,
    tenantId: 'platform',
  };
  const base = { APP_PROFILES_ACTIVE: 'dev', DATABASE_URI: 'pglite://memory', JWT_SECRET: secrets.jwt };
  // As scripts/start-all.mjs does: memory requires a key, and both callers send it.
  const memory = startService('memory', pm, { ...base, API_KEY: secrets.memoryKey, ...extraEnv.memory });
  const consult = startService('care-consult', pc, {
    ...base,
    RELAY_SIGNING_KEY: secrets.relay,
    MEMORY_BASE_URL: `http://127.0.0.1:${pm}`,
    MEMORY_API_KEY: secrets.memoryKey,
    WORKSPACE_WATCH: 'false',
    ATTACHMENTS_DIR: path.join(os.tmpdir(), `care-it-${pc}`),
    ...extraEnv.consult,
  });
  const auth = startService('platform-auth', pa, {
    ...base,
    BCRYPT_COST: '4',
    BOOTSTRAP_ADMIN_EMAIL: admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: admin.password,
    BOOTSTRAP_TENANT_ID: admin.tenantId,
    CARE_CONSULT_URL: consult.url,
    MEMORY_BASE_URL: memory.url,
    MEMORY_API_KEY: secrets.memoryKey,
    ...extraEnv.auth,
  });
  const all = [memory, consult, auth];
  try {
    await Promise.all([
      waitFor(memory, '/api/v1/system/health'),
      waitFor(consult, '/api/health'),
      waitFor(auth, '/actuator/health/liveness'),
    ]);
  } catch (err) {
    for (const s of all) s.child.kill('SIGKILL');
    throw err;
  }
  return {
    auth,
    consult,
    memory,
    admin,
    secrets,
    async stop() {
      const codes: Record<string, number | null> = {};
      await Promise.all(
        all.map(
          (s) =>
            new Promise<void>((resolve) => {
              if (s.child.exitCode !== null) {
                codes[s.name] = s.child.exitCode;
                return resolve();
              }
              const timer = setTimeout(() => s.child.kill('SIGKILL'), 15000);
              s.child.once('exit', (code) => {
                clearTimeout(timer);
                codes[s.name] = code;
                resolve();
              });
              s.child.kill('SIGTERM');
            }),
        ),
      );
      return codes;
    },
  };
}

/** A parsed SSE frame. */
export interface SseFrame {
  event: string;
  data: string;
  id?: string;
}

/** Reads a whole SSE response body into frames (comments dropped). */
export async function readSse(res: Response): Promise<SseFrame[]> {
  const text = await res.text();
  const frames: SseFrame[] = [];
  for (const block of text.split(/\n\n/)) {
    const frame: Partial<SseFrame> = {};
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const i = line.indexOf(':');
      const field = line.slice(0, i);
      const value = line.slice(i + 1).replace(/^ /, '');
      if (field === 'event') frame.event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') frame.id = value;
    }
    if (frame.event || data.length)
      frames.push({ event: frame.event ?? 'message', data: data.join('\n'), id: frame.id });
  }
  return frames;
}
