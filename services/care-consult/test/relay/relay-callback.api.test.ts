import request from 'supertest';
import {
  RELAY_USER_TOKEN,
  T0,
  T0_SEC,
  aTicketRequest,
  expectRejected,
  expectRelayHeaders,
} from './support/relay-api';
import { useRelayApp } from './support/relay-app';
import {
  CALLBACK,
  FOREIGN_RELAY_KEY,
  PREVIOUS_RELAY_KEY,
  aPayload,
  callbackQuery,
  signTicket,
} from './support/relay-fixtures';

describe('GET /api/relay/callback', () => {
  const relay = useRelayApp();
  const { issued, callback } = relay;

  it('redirects 302 to the ticket callback with exactly code and state, without a body', async () => {
    const ticket = await issued();
    const res = await callback(callbackQuery('auth-code-123', ticket)).expect(302);
    expect(res.headers.location).toBe(`http://127.0.0.1:5173/oauth/done?code=auth-code-123&state=${ticket}`);
    expect(res.text ?? '').toBe('');
    expectRelayHeaders(res);
  });

  it('form-encodes a code with reserved characters and keeps an existing query of the callback', async () => {
    const ticket = await issued({ callback_url: 'careapp://oauth/done?x=1' });
    const res = await callback(callbackQuery('a/b+c d&e', ticket)).expect(302);
    expect(res.headers.location).toBe(`careapp://oauth/done?x=1&code=a%2Fb%2Bc+d%26e&state=${ticket}`);
  });

  it('forwards the provider iss after code and state, and no other extra parameter', async () => {
    const ticket = await issued();
    const res = await callback(
      `scope=openid&${callbackQuery('c1', ticket)}&session_state=s1&iss=https%3A%2F%2Fidp.example%2Frealms%2Fcare`,
    ).expect(302);
    expect(res.headers.location).toBe(
      `http://127.0.0.1:5173/oauth/done?code=c1&state=${ticket}&iss=https%3A%2F%2Fidp.example%2Frealms%2Fcare`,
    );
  });

  it('forwards an http loopback iss in the dev profile only', async () => {
    const loopbackIss = `${callbackQuery('c1', await issued())}&iss=http%3A%2F%2F127.0.0.1%3A9000`;
    expect((await callback(loopbackIss).expect(302)).headers.location).toMatch(
      /&iss=http%3A%2F%2F127\.0\.0\.1%3A9000$/,
    );
    const prod = await relay.variant({ APP_PROFILES_ACTIVE: 'prod' });
    try {
      const ticket = (
        await request(prod.app)
          .post('/api/relay/tickets')
          .set('Authorization', `Bearer ${RELAY_USER_TOKEN}`)
          .send(aTicketRequest())
          .expect(201)
      ).body.ticket as string;
      const via = (iss: string) =>
        request(prod.app).get(`${CALLBACK}?${callbackQuery('c1', ticket)}&iss=${encodeURIComponent(iss)}`);
      expectRejected(await via('http://127.0.0.1:9000'), 400, 'RELAY_INVALID_ISSUER');
      await via('https://idp.example').expect(302); // the refused iss left the ticket unspent
    } finally {
      await prod.close();
    }
  });

  it('rejects a second resolution of the same ticket as RELAY_NONCE_REPLAYED', async () => {
    const ticket = await issued();
    await callback(callbackQuery('c1', ticket)).expect(302);
    expectRejected(await callback(callbackQuery('c2', ticket)), 400, 'RELAY_NONCE_REPLAYED');
  });

  it('resolves a ticket signed with a previous key during rotation', async () => {
    const ticket = signTicket(aPayload(T0_SEC), PREVIOUS_RELAY_KEY);
    await callback(callbackQuery('c1', ticket)).expect(302);
  });

  it('rejects an expired ticket', async () => {
    const ticket = await issued({ ttl_seconds: 1 });
    relay.now = T0 + 2_000;
    expectRejected(await callback(callbackQuery('c1', ticket)), 400, 'RELAY_EXPIRED');
  });

  // Each row: a query string built from a fresh, otherwise valid ticket, and the code it must be rejected with.
  const rejections: Array<[string, (t: string) => string, string]> = [
    ['no code', (t) => `state=${t}`, 'RELAY_MISSING_PARAMETER'],
    ['no state', () => 'code=c1', 'RELAY_MISSING_PARAMETER'],
    ['a blank code', (t) => `code=%20%20&state=${t}`, 'RELAY_MISSING_PARAMETER'],
    ['no query at all', () => '', 'RELAY_MISSING_PARAMETER'],
    ['code in array form', (t) => `code[]=c1&state=${t}`, 'RELAY_MISSING_PARAMETER'],
    ['state in object form', (t) => `code=c1&state[a]=${t}`, 'RELAY_MISSING_PARAMETER'],
    ['a differently cased name', (t) => `Code=c1&state=${t}`, 'RELAY_MISSING_PARAMETER'],
    ['code twice', (t) => `code=c1&code=c2&state=${t}`, 'RELAY_REPEATED_PARAMETER'],
    ['state twice', (t) => `code=c1&state=${t}&state=${t}`, 'RELAY_REPEATED_PARAMETER'],
    ['a provider error next to a code', (t) => `code=c1&error=x&state=${t}`, 'RELAY_INVALID_PROVIDER_ERROR'],
    ['a provider error with markup', (t) => `error=%3Cb%3E&state=${t}`, 'RELAY_INVALID_PROVIDER_ERROR'],
    ['a blank provider error', (t) => `error=+&state=${t}`, 'RELAY_INVALID_PROVIDER_ERROR'],
    ['a provider error without a ticket', () => 'error=access_denied', 'RELAY_MISSING_PARAMETER'],
    [
      'iss twice',
      (t) => `${callbackQuery('c1', t)}&iss=https%3A%2F%2Fa&iss=https%3A%2F%2Fa`,
      'RELAY_REPEATED_PARAMETER',
    ],
    [
      'an iss with a query',
      (t) => `${callbackQuery('c1', t)}&iss=https%3A%2F%2Fa%2F%3Fx%3D1`,
      'RELAY_INVALID_ISSUER',
    ],
    [
      'an http iss off loopback',
      (t) => `${callbackQuery('c1', t)}&iss=http%3A%2F%2Fidp.example`,
      'RELAY_INVALID_ISSUER',
    ],
    ['an empty iss', (t) => `${callbackQuery('c1', t)}&iss=`, 'RELAY_INVALID_ISSUER'],
    [
      'too many parameters',
      (t) => `code=c1&state=${t}&${Array.from({ length: 40 }, (_, i) => `p${i}=1`).join('&')}`,
      'RELAY_TOO_MANY_PARAMETERS',
    ],
    ['an oversized code', (t) => `code=${'c'.repeat(4097)}&state=${t}`, 'RELAY_PARAMETER_TOO_LONG'],
    ['a ticket without a dot', (t) => callbackQuery('c1', t.replace('.', '')), 'RELAY_MALFORMED_TICKET'],
    ['an uppercase signature', (t) => callbackQuery('c1', t.toUpperCase()), 'RELAY_MALFORMED_TICKET'],
    [
      'a changed payload byte',
      (t) => callbackQuery('c1', (t[0] === 'A' ? 'B' : 'A') + t.slice(1)),
      'RELAY_BAD_SIGNATURE',
    ],
    [
      'a changed signature',
      (t) => callbackQuery('c1', t.slice(0, -1) + (t.endsWith('0') ? '1' : '0')),
      'RELAY_BAD_SIGNATURE',
    ],
  ];
  it.each(rejections)(
    'rejects a callback with %s as a 400 problem without Location',
    async (_name, query, code) => {
      const ticket = await issued();
      expectRejected(await callback(query(ticket)), 400, code);
    },
  );

  it.each([
    [
      'signed with an unknown key',
      () => signTicket(aPayload(T0_SEC), FOREIGN_RELAY_KEY),
      'RELAY_BAD_SIGNATURE',
    ],
    [
      'living longer than 120 s',
      () => signTicket(aPayload(T0_SEC, { exp: T0_SEC + 121 })),
      'RELAY_TTL_TOO_LONG',
    ],
    [
      'issued in the future',
      () => signTicket(aPayload(T0_SEC + 60, { exp: T0_SEC + 120 })),
      'RELAY_ISSUED_IN_FUTURE',
    ],
    [
      'with a callback outside the allowlist',
      () => signTicket(aPayload(T0_SEC, { cb: 'https://evil.example/' })),
      'RELAY_CALLBACK_NOT_ALLOWED',
    ],
    [
      'with an extra payload field',
      () => signTicket({ ...aPayload(T0_SEC), tid: 'x' }),
      'RELAY_MALFORMED_TICKET',
    ],
  ])('rejects a ticket %s', async (_name, ticket, code) => {
    expectRejected(await callback(callbackQuery('c1', ticket())), 400, code);
  });

  it('never redirects a request whose query is larger than the server accepts', async () => {
    const ticket = await issued();
    const res = await callback(`${callbackQuery('c1', ticket)}&pad=${'x'.repeat(17_000)}`);
    expect([400, 431]).toContain(res.status);
    expect(res.headers.location).toBeUndefined();
  });

  it('refuses HEAD with 405 and leaves the ticket usable for the GET', async () => {
    const ticket = await issued();
    const head = await request(relay.ctx.app)
      .head(`${CALLBACK}?${callbackQuery('c1', ticket)}`)
      .expect(405);
    expect(head.headers.location).toBeUndefined();
    expect(head.headers.allow).toBe('GET');
    await callback(callbackQuery('c1', ticket)).expect(302);
  });

  it('answers 429 with Retry-After once a client exceeds the callback rate limit', async () => {
    const limited = await relay.variant({ RELAY_CALLBACK_RATE_LIMIT: '3' });
    try {
      for (let i = 0; i < 3; i++)
        expectRejected(await request(limited.app).get(`${CALLBACK}?code=c`), 400, 'RELAY_MISSING_PARAMETER');
      const res = await request(limited.app).get(`${CALLBACK}?code=c`);
      expectRejected(res, 429, 'RELAY_RATE_LIMITED');
      expect(res.headers['retry-after']).toBe('60');
    } finally {
      await limited.close();
    }
  });

  it('audits resolutions and signed rejections with user, connection and reason only, under the relay audit tenant', async () => {
    const ticket = await issued({ connection_id: 'conn-audit' });
    await callback(callbackQuery('secret-code-audit', ticket)).expect(302);
    await callback(callbackQuery('secret-code-audit', ticket)).expect(400);
    const page = await relay.ctx.deps.audit.list(
      { tenantId: 'platform', userId: 'x', admin: true },
      { resourceId: 'conn-audit' },
    );
    const events = page.items
      .map((e) => ({ action: e.action, actorId: e.actorId, outcome: e.outcome, meta: e.meta }))
      .sort((a, b) => a.outcome.localeCompare(b.outcome));
    expect(events).toEqual([
      {
        action: 'relay.callback.resolve',
        actorId: 'user-42',
        outcome: 'failure',
        meta: { reason: 'RELAY_NONCE_REPLAYED' },
      },
      { action: 'relay.callback.resolve', actorId: 'user-42', outcome: 'success', meta: {} },
    ]);
    const issuance = await relay.ctx.deps.audit.list(
      { tenantId: 'tenant-r', userId: 'user-42', admin: false },
      { resourceId: 'conn-audit' },
    );
    expect(issuance.items.map((e) => [e.action, e.outcome])).toEqual([['relay.ticket.issue', 'success']]);
    expect(JSON.stringify([page, issuance])).not.toMatch(/secret-code-audit|\.[0-9a-f]{64}/);
  });
});
