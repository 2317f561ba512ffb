import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '@care/db';
import { openCareConsultDatabase } from '../../src/db/open-database';
import { aUser } from '../builders/user.builder';
import type { TestContext } from '../support/test-app';
import { relayTestContext } from './support/relay-fixtures';
import {
  makeLoopbackCertificate,
  startChild,
  type ChildService,
  type LoopbackCertificate,
} from './support/oidc-e2e';
import { UserAgent, formAction, hiddenFields, linkTo, type Hop } from './support/user-agent';

interface Idp {
  issuer: string;
  clientId: string;
}

const last = (hops: Hop[]): Hop => hops[hops.length - 1];

// The whole path a user takes, with real parts only: oidc-provider 9 as the identity provider (HTTPS on loopback,
// the relay as its one registered redirect URI), care-consult's relay on a real socket, and a companion app on
// 127.0.0.1 using openid-client 6 on its default settings (RFC 9207 iss check on, state check, PKCE). The browser is
// a cookie-keeping HTTP client that fills in the provider's own login and consent forms.
describe('relay end to end: oidc-provider, the relay, and an openid-client companion app', () => {
  let database: Database;
  let ctx: TestContext;
  let server: http.Server;
  let tls: LoopbackCertificate;
  let idp: ChildService<Idp>;
  let companion: ChildService<{ origin: string }>;
  let relayUri: string;

  beforeAll(async () => {
    tls = makeLoopbackCertificate();
    database = await openCareConsultDatabase({ uri: 'pglite://memory' });
    ctx = await relayTestContext({ database });
    server = http.createServer(ctx.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const careConsult = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    relayUri = `${careConsult}/api/relay/callback`;
    idp = await startChild<Idp>('oidc-idp.mjs', {
      RELAY_REDIRECT_URI: relayUri,
      TLS_CERT_FILE: tls.certFile,
      TLS_KEY_FILE: tls.keyFile,
    });
    companion = await startChild('companion-app.mjs', {
      CARE_CONSULT_URL: careConsult,
      CARE_TOKEN: aUser().withId('user-e2e').inTenant('tenant-e2e').token(),
      ISSUER: idp.ready.issuer,
      CLIENT_ID: idp.ready.clientId,
      RELAY_REDIRECT_URI: relayUri,
      NODE_EXTRA_CA_CERTS: tls.certFile,
    });
  }, 120_000);

  afterAll(async () => {
    await companion?.stop();
    await idp?.stop();
    if (server)
      await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
    await ctx?.close();
    await database?.close();
    tls?.remove();
  });

  /** Starts a sign-in at the companion app and logs in at the provider; returns the consent page. */
  async function loginAs(browser: UserAgent, login: string): Promise<{ consent: Hop; ticket: string }> {
    const start = await browser.follow(`${companion.ready.origin}/connect`);
    const authorization = new URL(start[0].location ?? '');
    expect(authorization.origin + authorization.pathname).toBe(`${idp.ready.issuer}/auth`);
    expect(authorization.searchParams.get('redirect_uri')).toBe(relayUri);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    const ticket = authorization.searchParams.get('state') ?? '';
    const loginPage = last(start);
    expect(loginPage.status).toBe(200);
    const afterLogin = await browser.follow(formAction(loginPage.body, loginPage.url), relayUri, {
      ...hiddenFields(loginPage.body),
      login,
      password: 'any password',
    });
    const consent = last(afterLogin);
    expect([consent.status, consent.body]).toEqual([
      200,
      expect.stringContaining('name="prompt" value="consent"'),
    ]);
    return { consent, ticket };
  }

  it('signs the user in: openid-client accepts the relayed code, state and iss and redeems the code with its PKCE verifier', async () => {
    const browser = new UserAgent(tls.cert);
    const { consent, ticket } = await loginAs(browser, 'ada');
    const approved = await browser.follow(
      formAction(consent.body, consent.url),
      relayUri,
      hiddenFields(consent.body),
    );
    // The provider sends the browser to the relay with code, state (the ticket) and iss (RFC 9207).
    const toRelay = new URL(last(approved).location ?? '');
    expect(toRelay.origin + toRelay.pathname).toBe(relayUri);
    expect(toRelay.searchParams.get('state')).toBe(ticket);
    expect(toRelay.searchParams.get('iss')).toBe(idp.ready.issuer);
    const code = toRelay.searchParams.get('code');
    expect(code).toBeTruthy();

    const relayed = await browser.request(toRelay.href);
    expect(relayed.status).toBe(302);
    const toApp = new URL(relayed.location ?? '');
    expect(toApp.origin + toApp.pathname).toBe(`${companion.ready.origin}/oauth/done`);
    expect([...toApp.searchParams]).toEqual([
      ['code', code],
      ['state', ticket],
      ['iss', idp.ready.issuer],
    ]);

    const app = await browser.request(toApp.href);
    expect({ status: app.status, answer: JSON.parse(app.body) }).toEqual({
      status: 200,
      answer: {
        outcome: 'signed_in',
        sub: 'ada',
        tokenType: expect.stringMatching(/^bearer$/i),
        accessToken: true,
      },
    });

    const replay = await browser.request(toRelay.href);
    expect([replay.status, replay.location, JSON.parse(replay.body).code]).toEqual([
      400,
      undefined,
      'RELAY_NONCE_REPLAYED',
    ]);
  }, 60_000);

  it('tells the app when the user denies consent, and refuses the spent ticket afterwards', async () => {
    const browser = new UserAgent(tls.cert);
    const { consent, ticket } = await loginAs(browser, 'grace');
    const cancelled = await browser.follow(linkTo(consent.body, 'Cancel', consent.url), relayUri);
    const toRelay = new URL(last(cancelled).location ?? '');
    expect(toRelay.origin + toRelay.pathname).toBe(relayUri);
    expect(toRelay.searchParams.get('error')).toBe('access_denied');
    expect(toRelay.searchParams.get('state')).toBe(ticket);

    const relayed = await browser.request(toRelay.href);
    expect(relayed.status).toBe(302);
    const toApp = new URL(relayed.location ?? '');
    expect([...toApp.searchParams]).toEqual([
      ['error', 'access_denied'],
      ['error_description', 'End-User aborted interaction'],
      ['state', ticket],
      ['iss', idp.ready.issuer],
    ]);

    // openid-client checked iss and state, then reported the provider's error to the app (not "iss missing").
    const app = await browser.request(toApp.href);
    expect({ status: app.status, answer: JSON.parse(app.body) }).toEqual({
      status: 400,
      answer: expect.objectContaining({
        outcome: 'failed',
        name: 'AuthorizationResponseError',
        error: 'access_denied',
        errorDescription: 'End-User aborted interaction',
      }),
    });

    // The ticket is spent: the same response again, or a code someone pairs with it, gets a 400 and no redirect.
    const stolenCode = new URL(relayUri);
    stolenCode.search = new URLSearchParams({
      code: 'stolen-code',
      state: ticket,
      iss: idp.ready.issuer,
    }).toString();
    for (const again of [toRelay.href, stolenCode.href]) {
      const replay = await browser.request(again);
      expect([replay.status, replay.location, JSON.parse(replay.body).code]).toEqual([
        400,
        undefined,
        'RELAY_NONCE_REPLAYED',
      ]);
    }

    const audit = await ctx.deps.audit.list(
      { tenantId: 'platform', userId: 'auditor', admin: true },
      { action: 'relay.callback.resolve', actorId: 'user-e2e' },
    );
    expect(audit.items.map((e) => e.meta)).toEqual(
      expect.arrayContaining([{ reason: 'RELAY_PROVIDER_ERROR', providerError: 'access_denied' }]),
    );
  }, 60_000);
});
