import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** Handle on the oidc-provider child process. */
export interface OidcProvider {
  issuer: string;
  jwksUri: string;
  /** A JWT access token for a client (see CLAIMS in oidc-server.mjs); `es` asks for an ES256 token. */
  token(clientId: string, opts?: { es?: boolean }): Promise<string>;
  /** Switches signing to a new RSA key; returns its kid. */
  rotate(): Promise<string>;
  jwksHits(): Promise<number>;
  stop(): Promise<void>;
}

// RFC 6749 2.3.1: client id and secret are form-urlencoded before the Basic encoding (ids here contain | and #).
const basic = (clientId: string) =>
  Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(`${clientId}-secret`)}`).toString(
    'base64',
  );

/** Starts the provider script in a child process (oidc-provider is ESM-only; jest runs CommonJS). */
export async function startOidcProvider(): Promise<OidcProvider> {
  // Its development warnings (in-memory adapter, Node version) are kept out of the test output unless it fails.
  const child: ChildProcess = fork(path.join(__dirname, 'oidc-server.mjs'), [], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (c) => (output += c));
  child.stderr?.on('data', (c) => (output += c));
  const issuer = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { issuer: string }) => resolve(m.issuer));
    child.once('exit', (code) => reject(new Error(`oidc provider exited with ${code}: ${output}`)));
  });
  let seq = 0;
  const ask = <T>(cmd: string): Promise<T> =>
    new Promise((resolve) => {
      const id = ++seq;
      const onMessage = (m: T & { id?: number }) => {
        if (m.id !== id) return;
        child.off('message', onMessage);
        resolve(m);
      };
      child.on('message', onMessage);
      child.send({ cmd, id });
    });
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    async token(clientId, opts = {}) {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${basic(clientId)}`,
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          scope: 'api',
          resource: opts.es ? 'https://es.care.test' : 'https://api.care.test',
        }),
      });
      const body = (await res.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`token request failed: ${res.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    rotate: async () => (await ask<{ kid: string }>('rotate')).kid,
    jwksHits: async () => (await ask<{ jwksHits: number }>('stats')).jwksHits,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send({ cmd: 'stop' });
      }),
  };
}
