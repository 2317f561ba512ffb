// A real OpenID provider (oidc-provider 9, ESM-only, so a child process) for the relay end-to-end test, served over
// HTTPS on 127.0.0.1 with the test's self-signed certificate: openid-client 6 on its default settings talks to
// https issuers only. One public client (PKCE, no secret) whose only registered redirect URI is the relay callback.
// Login and consent are oidc-provider's own development interactions (HTML forms, cookies), driven over HTTP by the
// test like a browser would. Env: RELAY_REDIRECT_URI, TLS_CERT_FILE, TLS_KEY_FILE. IPC: {issuer} when ready;
// {cmd: 'stop'} closes.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import Provider from 'oidc-provider';

const CLIENT_ID = 'care-companion';

const server = https.createServer({
  cert: readFileSync(process.env.TLS_CERT_FILE),
  key: readFileSync(process.env.TLS_KEY_FILE),
});

server.listen(0, '127.0.0.1', () => {
  const issuer = `https://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        token_endpoint_auth_method: 'none',
        redirect_uris: [process.env.RELAY_REDIRECT_URI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    cookies: { keys: ['relay-e2e-cookie-key-0123456789abcdef'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
  });
  provider.on('server_error', (_ctx, err) => console.error('oidc server_error', err));
  server.on('request', provider.callback());
  process.send({ issuer, clientId: CLIENT_ID });
});

process.on('message', (msg) => {
  if (msg.cmd === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
