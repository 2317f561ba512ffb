import request from 'supertest';
import type { Database } from '@care/db';
import { openCareConsultDatabase } from '../../../src/db/open-database';
import type { TestContext } from '../../support/test-app';
import { RELAY_USER_TOKEN, T0, aTicketRequest } from './relay-api';
import { CALLBACK, relayTestContext } from './relay-fixtures';

/** The relay app of one describe block, its database and the clock its tests move. */
export interface RelayApp {
  readonly ctx: TestContext;
  readonly database: Database;
  /** Milliseconds the app's clock reads; back to T0 before each test. */
  now: number;
  /** What the app's clock reads now. */
  clock(): Date;
  /** Another app on the same database and clock, with `env` added to the relay settings (the caller closes it). */
  variant(env: Record<string, string>): Promise<TestContext>;
  /** `POST /api/relay/tickets` as the relay test user. */
  issue(body: Record<string, unknown>): request.Test;
  /** A ticket issued for `aTicketRequest(over)` (expects 201). */
  issued(over?: Record<string, unknown>): Promise<string>;
  /** `GET /api/relay/callback?<query>`. */
  callback(query: string): request.Test;
}

/**
 * Registers the set-up the relay API suites share: an in-memory database and a relay app on a test clock, opened
 * before the block, closed after it, the clock back at T0 before each test.
 */
export function useRelayApp(): RelayApp {
  let database: Database | undefined;
  let ctx: TestContext | undefined;
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the relay app is opened in beforeAll');
    return value;
  };
  const relay: RelayApp = {
    get ctx() {
      return opened(ctx);
    },
    get database() {
      return opened(database);
    },
    now: T0,
    clock: () => new Date(relay.now),
    variant: (env) => relayTestContext({ database: relay.database, env, overrides: { clock: relay.clock } }),
    issue: (body) =>
      request(relay.ctx.app)
        .post('/api/relay/tickets')
        .set('Authorization', `Bearer ${RELAY_USER_TOKEN}`)
        .send(body),
    issued: async (over = {}) => (await relay.issue(aTicketRequest(over)).expect(201)).body.ticket as string,
    callback: (query) => request(relay.ctx.app).get(`${CALLBACK}?${query}`),
  };
  beforeAll(async () => {
    database = await openCareConsultDatabase({ uri: 'pglite://memory' });
    ctx = await relayTestContext({ database, overrides: { clock: relay.clock } });
  });
  afterAll(async () => {
    await ctx?.close();
    await database?.close();
  });
  beforeEach(() => {
    relay.now = T0;
  });
  return relay;
}
