import request from 'supertest';
import { RelayError, type NonceStore } from '@care/crypto';
import type { Database } from '@care/db';
import { openCareConsultDatabase } from '../../src/db/open-database';
import type { TestContext } from '../support/test-app';
import { aUser } from '../builders/user.builder';
import {
  CALLBACK,
  RELAY_KEY,
  aPayload,
  callbackQuery,
  capturingLogger,
  relayTestContext,
  signTicket,
} from './support/relay-fixtures';

// Distinctive values, so a leak anywhere in a log line is found by a plain substring search.
const CODE = 'SECRET-AUTH-CODE-7f3a9c';
const DESCRIPTION = 'SECRET-DESCRIPTION-91b2e0';

describe('relay logging', () => {
  let database: Database;
  const contexts: TestContext[] = [];

  beforeAll(async () => {
    database = await openCareConsultDatabase({ uri: 'pglite://memory' });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await database.close();
  });

  it('never writes the authorization code, the ticket or an error description to the logs, on success, provider error, rejection or store failure', async () => {
    const capture = capturingLogger();
    const ctx = await relayTestContext({ database, overrides: { logger: capture.logger } });
    contexts.push(ctx);
    const token = aUser().withId('user-log').token();

    const issue = async () =>
      (
        await request(ctx.app)
          .post('/api/relay/tickets')
          .set('Authorization', `Bearer ${token}`)
          .send({
            profile_id: 'p',
            connection_id: 'conn-log',
            callback_url: 'http://127.0.0.1:9/cb',
            ttl_seconds: 30,
          })
          .expect(201)
      ).body.ticket as string;
    const ticket = await issue();
    const deniedTicket = await issue();
    const signature = ticket.split('.')[1];

    await request(ctx.app)
      .get(`${CALLBACK}?${callbackQuery(CODE, ticket)}`)
      .expect(302);
    await request(ctx.app)
      .get(`${CALLBACK}?${callbackQuery(CODE, ticket)}`)
      .expect(400); // replay
    await request(ctx.app)
      .get(`${CALLBACK}?${callbackQuery(CODE, ticket.slice(0, -2))}`)
      .expect(400); // malformed
    await request(ctx.app).get(`${CALLBACK}?code=${CODE}&code=${CODE}&state=${ticket}`).expect(400); // repeated
    await request(ctx.app)
      .get(`${CALLBACK}?error=access_denied&error_description=${DESCRIPTION}&state=${deniedTicket}`)
      .expect(302);

    const text = capture.text();
    // The logs did record these requests (so the search below looks at something), by path and outcome.
    const relayLines = capture.lines().filter((l) => (l.relay as { outcome?: string } | undefined)?.outcome);
    expect(relayLines.map((l) => (l.relay as { outcome: string }).outcome)).toEqual([
      'resolved',
      'rejected',
      'rejected',
      'provider_error',
    ]);
    expect(relayLines[3].relay).toEqual({
      outcome: 'provider_error',
      connectionId: 'conn-log',
      providerError: 'access_denied',
    });
    expect(text).toContain('/api/relay/callback');
    expect(text).toContain('conn-log');
    for (const secret of [
      CODE,
      DESCRIPTION,
      ticket,
      deniedTicket,
      signature,
      ticket.split('.')[0].slice(0, 40),
    ])
      expect(text).not.toContain(secret);
  });

  it('answers 503 without a redirect when the nonce store fails, and logs neither the code nor what the store said', async () => {
    const capture = capturingLogger();
    const leakyFailure: NonceStore = {
      consume: async (nonce) => {
        // A store client whose error names the key it tried, as Redis clients do.
        throw new RelayError('RELAY_NONCE_STORE_UNAVAILABLE', 'the nonce store is unavailable', {
          cause: new Error(`SET care:relay:nonce:${nonce} failed`),
        });
      },
    };
    const ctx = await relayTestContext({
      database,
      overrides: {
        logger: capture.logger,
        relay: { keys: { current: RELAY_KEY }, nonceStore: leakyFailure },
      },
    });
    contexts.push(ctx);
    const payload = aPayload(Math.floor(Date.now() / 1000));
    const res = await request(ctx.app).get(`${CALLBACK}?${callbackQuery(CODE, signTicket(payload))}`);
    expect({ status: res.status, code: res.body.code, location: res.headers.location }).toEqual({
      status: 503,
      code: 'RELAY_NONCE_STORE_UNAVAILABLE',
      location: undefined,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const text = capture.text();
    expect(text).toContain('RELAY_NONCE_STORE_UNAVAILABLE');
    expect(text).not.toContain(CODE);
    expect(text).not.toContain(payload.nonce);
  });
});
