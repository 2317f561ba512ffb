import request from 'supertest';
import { T0, T0_SEC, aTicketRequest, expectRejected, expectRelayHeaders } from './support/relay-api';
import { useRelayApp } from './support/relay-app';

describe('POST /api/relay/tickets', () => {
  const relay = useRelayApp();
  const { issue } = relay;

  it('issues a ticket for the token subject that expires ttl_seconds from now', async () => {
    const res = await issue(aTicketRequest({ ttl_seconds: 90 })).expect(201);
    expect(Object.keys(res.body).sort()).toEqual(['expires_at', 'ticket']);
    expect(res.body.expires_at).toBe(new Date(T0 + 90_000).toISOString());
    const payload = JSON.parse(Buffer.from(res.body.ticket.split('.')[0], 'base64url').toString('utf8'));
    expect(payload).toMatchObject({
      v: 1,
      uid: 'user-42',
      pid: 'profile-7',
      cid: 'conn-9',
      iat: T0_SEC,
      exp: T0_SEC + 90,
    });
    expectRelayHeaders(res);
  });

  it('answers 401 with the relay headers when no bearer token is sent', async () => {
    const res = await request(relay.ctx.app).post('/api/relay/tickets').send(aTicketRequest()).expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expectRelayHeaders(res);
  });

  it.each([
    ['an https host', 'https://evil.example/cb'],
    ['localhost', 'http://localhost:5173/cb'],
    ['a non-canonical loopback', 'http://127.1/cb'],
    ['userinfo', 'http://user@127.0.0.1/cb'],
    ['a fragment', 'http://127.0.0.1/cb#x'],
    ['a callback already carrying code', 'http://127.0.0.1/cb?code=1'],
    ['another app scheme', 'otherapp://cb'],
  ])('rejects a callback URL with %s as a 400 RELAY_CALLBACK_NOT_ALLOWED', async (_name, url) => {
    const res = await issue(aTicketRequest({ callback_url: url }));
    expectRejected(res, 400, 'RELAY_CALLBACK_NOT_ALLOWED');
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/callback_url' })]);
  });

  it('accepts the companion app scheme as callback', async () => {
    await issue(aTicketRequest({ callback_url: 'careapp://oauth/done' })).expect(201);
  });

  it.each([0, 121, 1.5, -1])('rejects ttl_seconds %p as a 400 pointing at ttl_seconds', async (ttl) => {
    const res = await issue(aTicketRequest({ ttl_seconds: ttl }));
    expectRejected(res, 400, 'VALIDATION_FAILED');
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/ttl_seconds');
  });

  it('rejects unknown body fields and missing ones', async () => {
    expectRejected(await issue(aTicketRequest({ uid: 'someone-else' })), 400, 'VALIDATION_FAILED');
    const { profile_id: _omitted, ...rest } = aTicketRequest();
    expectRejected(await issue(rest), 400, 'VALIDATION_FAILED');
  });
});
