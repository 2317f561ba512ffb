// A companion app as a user would write one (child process: openid-client 6 is ESM-only): a real HTTP server on
// 127.0.0.1 and openid-client on its default settings (https only, RFC 9207 iss check on, state check, PKCE S256).
// GET /connect asks care-consult for a relay ticket, uses it as the `state` of an authorization request whose
// redirect_uri is the relay, and sends the browser to the provider. GET /oauth/done is the ticket's callback: the
// relay's 302 lands here and the code is exchanged with the PKCE verifier, which never left this process. The
// answer (JSON) says what openid-client made of the response. Env: CARE_CONSULT_URL, CARE_TOKEN, ISSUER, CLIENT_ID,
// RELAY_REDIRECT_URI (the provider's only registered redirect URI), NODE_EXTRA_CA_CERTS (the test's certificate).
import http from 'node:http';
import * as client from 'openid-client';

const env = process.env;
const config = await client.discovery(new URL(env.ISSUER), env.CLIENT_ID);
// Relay ticket -> PKCE code verifier of the authorization request it is the state of.
const pending = new Map();
let callbackUrl;

const json = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

async function connect(res) {
  const verifier = client.randomPKCECodeVerifier();
  const issued = await fetch(`${env.CARE_CONSULT_URL}/api/relay/tickets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.CARE_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      profile_id: 'profile-e2e',
      connection_id: 'conn-e2e',
      callback_url: callbackUrl,
      ttl_seconds: 120,
    }),
  });
  if (issued.status !== 201) return json(res, 502, { outcome: 'no_ticket', status: issued.status });
  const { ticket } = await issued.json();
  pending.set(ticket, verifier);
  const authorizationUrl = client.buildAuthorizationUrl(config, {
    redirect_uri: env.RELAY_REDIRECT_URI,
    scope: 'openid',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: ticket,
  });
  res.writeHead(302, { location: authorizationUrl.href }).end();
}

async function done(url, res) {
  const state = url.searchParams.get('state');
  const verifier = pending.get(state);
  if (verifier === undefined) return json(res, 400, { outcome: 'unknown_state' });
  pending.delete(state);
  // The authorization response was addressed to the relay: that is the redirect_uri of the token request.
  const response = new URL(env.RELAY_REDIRECT_URI);
  response.search = url.search;
  try {
    const tokens = await client.authorizationCodeGrant(config, response, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    json(res, 200, {
      outcome: 'signed_in',
      sub: tokens.claims()?.sub,
      tokenType: tokens.token_type,
      accessToken: typeof tokens.access_token === 'string' && tokens.access_token.length > 0,
    });
  } catch (err) {
    json(res, 400, {
      outcome: 'failed',
      name: err.name,
      code: err.code,
      message: err.message,
      error: err.error,
      errorDescription: err.error_description,
    });
  }
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, callbackUrl);
  const route =
    url.pathname === '/connect' ? connect(res) : url.pathname === '/oauth/done' ? done(url, res) : null;
  if (route === null) return json(res, 404, { outcome: 'not_found' });
  route.catch((err) => json(res, 500, { outcome: 'crashed', message: String(err?.message ?? err) }));
});

server.listen(0, '127.0.0.1', () => {
  const origin = `http://127.0.0.1:${server.address().port}`;
  callbackUrl = `${origin}/oauth/done`;
  process.send({ origin });
});

process.on('message', (msg) => {
  if (msg.cmd === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
