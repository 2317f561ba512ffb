import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A self-signed certificate for 127.0.0.1 in a temporary folder (remove() deletes it). */
export interface LoopbackCertificate {
  certFile: string;
  keyFile: string;
  cert: Buffer;
  remove(): void;
}

/**
 * Makes a one-day self-signed P-256 certificate for the IP address 127.0.0.1 with the system's `openssl` (the
 * provider serves HTTPS because openid-client on its defaults refuses plain HTTP). Trusted by the test's browser via
 * `ca` and by the companion app's process via NODE_EXTRA_CA_CERTS, as a user would install a local CA.
 */
export function makeLoopbackCertificate(): LoopbackCertificate {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'relay-e2e-tls-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'pipe' },
  );
  return {
    certFile,
    keyFile,
    cert: readFileSync(certFile),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A script of this folder running in a child process, with the first message it sent (its address). */
export interface ChildService<T> {
  ready: T;
  stop(): Promise<void>;
}

/**
 * Forks `support/<script>` with extra environment and waits for its first IPC message. The child's output is kept
 * and shown only if it exits before it is ready (oidc-provider prints development warnings on every start).
 */
export async function startChild<T>(script: string, env: Record<string, string>): Promise<ChildService<T>> {
  const child = fork(path.join(__dirname, script), [], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (c) => (output += c));
  child.stderr?.on('data', (c) => (output += c));
  const ready = await new Promise<T>((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
  return {
    ready,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ cmd: 'stop' });
      }),
  };
}
