import { T0, T0_SEC, expectRejected, expectRelayHeaders } from './support/relay-api';
import { useRelayApp } from './support/relay-app';
import { FOREIGN_RELAY_KEY, aPayload, callbackQuery, signTicket } from './support/relay-fixtures';

// RFC 6749 section 4.1.2.1: the provider answers the redirect URI with error, error_description and state.
describe('GET /api/relay/callback with a provider error response', () => {
  const relay = useRelayApp();
  const { issued, callback } = relay;

  const denied = (ticket: string, extra = '') =>
    `error=access_denied&error_description=End-User+aborted+interaction&state=${ticket}${extra}`;

  it('redirects 302 to the app with error, error_description, state and iss, and nothing else', async () => {
    const ticket = await issued();
    const res = await callback(
      denied(
        ticket,
        '&iss=https%3A%2F%2Fidp.example&error_uri=https%3A%2F%2Fevil.example%2Fhelp&scope=openid',
      ),
    ).expect(302);
    expect(res.headers.location).toBe(
      'http://127.0.0.1:5173/oauth/done?error=access_denied&error_description=End-User+aborted+interaction' +
        `&state=${ticket}&iss=https%3A%2F%2Fidp.example`,
    );
    expect(res.text ?? '').toBe('');
    expectRelayHeaders(res);
  });

  it('forwards the description without markup or control characters, cut to 256 characters', async () => {
    const ticket = await issued();
    const description = encodeURIComponent(
      `<script>alert(1)</script>\r\nSet-Cookie: a=b "x" ${'long '.repeat(80)}`,
    );
    const res = await callback(`error=server_error&error_description=${description}&state=${ticket}`).expect(
      302,
    );
    const forwarded = new URL(res.headers.location).searchParams.get('error_description') ?? '';
    expect(forwarded.startsWith('script alert(1) /script Set-Cookie: a=b x long long')).toBe(true);
    expect(forwarded.length).toBeLessThanOrEqual(256);
    expect(forwarded).not.toMatch(/[<>"\r\n]/);
  });

  it('spends the ticket: a later code or error with it is refused as RELAY_NONCE_REPLAYED', async () => {
    const ticket = await issued();
    await callback(denied(ticket)).expect(302);
    expectRejected(await callback(callbackQuery('code-after-error', ticket)), 400, 'RELAY_NONCE_REPLAYED');
    expectRejected(await callback(denied(ticket)), 400, 'RELAY_NONCE_REPLAYED');
  });

  it.each([
    ['expired', async () => issued({ ttl_seconds: 1 }), 2_000, 'RELAY_EXPIRED'],
    [
      'signed with an unknown key',
      async () => signTicket(aPayload(T0_SEC), FOREIGN_RELAY_KEY),
      0,
      'RELAY_BAD_SIGNATURE',
    ],
    ['malformed', async () => 'not-a-ticket', 0, 'RELAY_MALFORMED_TICKET'],
    [
      'with a callback outside the allowlist',
      async () => signTicket(aPayload(T0_SEC, { cb: 'https://evil.example/' })),
      0,
      'RELAY_CALLBACK_NOT_ALLOWED',
    ],
  ])('answers 400 without a redirect when the ticket is %s', async (_name, ticket, advanceMs, code) => {
    const t = await ticket();
    relay.now = T0 + advanceMs;
    expectRejected(await callback(denied(t)), 400, code);
  });

  it('refuses an error for a ticket already resolved with a code', async () => {
    const ticket = await issued();
    await callback(callbackQuery('c1', ticket)).expect(302);
    expectRejected(await callback(denied(ticket)), 400, 'RELAY_NONCE_REPLAYED');
  });

  it('audits the relayed error with its code but not its description, and a replay after it', async () => {
    const ticket = await issued({ connection_id: 'conn-denied' });
    await callback(denied(ticket)).expect(302);
    await callback(callbackQuery('c1', ticket)).expect(400);
    const page = await relay.ctx.deps.audit.list(
      { tenantId: 'platform', userId: 'x', admin: true },
      { resourceId: 'conn-denied' },
    );
    const events = page.items.map((e) => ({ actorId: e.actorId, outcome: e.outcome, meta: e.meta }));
    expect(events).toEqual(
      expect.arrayContaining([
        {
          actorId: 'user-42',
          outcome: 'failure',
          meta: { reason: 'RELAY_PROVIDER_ERROR', providerError: 'access_denied' },
        },
        { actorId: 'user-42', outcome: 'failure', meta: { reason: 'RELAY_NONCE_REPLAYED' } },
      ]),
    );
    expect(events).toHaveLength(2);
    expect(JSON.stringify(page)).not.toMatch(/aborted|\.[0-9a-f]{64}/);
  });
});
