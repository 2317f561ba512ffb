// A real OpenID provider (oidc-provider, ESM-only) for the external-mode tests, run in a child process and
// reached over loopback HTTP. Clients use the client_credentials grant and receive JWT access tokens carrying
// the custom claims tenantId and roles. IPC commands: rotate (new signing key, old one still published),
// stats (how often the JWKS was fetched).
import http from 'node:http';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import Provider from 'oidc-provider';

const AUDIENCE = process.env.OIDC_AUDIENCE ?? 'care-platform';
const CLAIMS = {
  'acme-user': { tenantId: 'acme', roles: ['USER'] },
  'acme-admin': { tenantId: 'acme', roles: ['TENANT_ADMIN'] },
  'globex-user': { tenantId: 'globex', roles: ['USER'] },
  'no-tenant': { roles: ['USER'] },
  'no-roles': { tenantId: 'acme' },
  // Subjects shaped like Auth0's and Azure AD's: opaque strings, not UUIDs (the token's sub is the client id).
  'auth0|5f7c8ec7c33c6c004bbafe82': { tenantId: 'platform', roles: ['PLATFORM_ADMIN'] },
  'waad:00000003-0000-0000-c000-000000000000#x': { tenantId: 'acme', roles: ['TENANT_ADMIN'] },
};

const rsaKey = () => ({
  ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  kid: `rsa-${randomUUID()}`,
  alg: 'RS256',
  use: 'sig',
});
const ecKey = {
  ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
  kid: `ec-${randomUUID()}`,
  alg: 'ES256',
  use: 'sig',
};

let keys = [rsaKey(), ecKey];
let jwksHits = 0;
let handler;
let issuer;

function build() {
  const provider = new Provider(issuer, {
    clients: Object.keys(CLAIMS).map((id) => ({
      client_id: id,
      client_secret: `${id}-secret`,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
    })),
    jwks: { keys },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => 'https://api.care.test',
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: 'api',
          audience: AUDIENCE,
          accessTokenTTL: 300,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: resource === 'https://es.care.test' ? 'ES256' : 'RS256' } },
        }),
      },
    },
    ttl: { ClientCredentials: 300 },
    extraTokenClaims: (_ctx, token) => CLAIMS[token.clientId],
  });
  provider.on('server_error', (_ctx, err) => console.error('oidc server_error', err));
  return provider.callback();
}

const server = http.createServer((req, res) => {
  if (req.url?.startsWith('/jwks')) jwksHits++;
  handler(req, res);
});
server.listen(0, '127.0.0.1', () => {
  issuer = `http://127.0.0.1:${server.address().port}`;
  handler = build();
  process.send({ ready: true, issuer });
});

process.on('message', (msg) => {
  if (msg.cmd === 'rotate') {
    // The new key signs from now on; the previous ones stay published so tokens already issued still verify.
    keys = [rsaKey(), ...keys];
    handler = build();
    process.send({ id: msg.id, kid: keys[0].kid });
  } else if (msg.cmd === 'stats') {
    process.send({ id: msg.id, jwksHits });
  } else if (msg.cmd === 'stop') {
    server.close(() => process.exit(0));
  }
});
