import request from 'supertest';
import { aUser } from '../../builders/user.builder';

/** Fixed start of the clock of the relay API tests. */
export const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
/** T0 in UNIX seconds. */
export const T0_SEC = T0 / 1000;

/** The caller of the relay API tests and a long-lived token of theirs. */
export const RELAY_USER = aUser().withId('user-42').inTenant('tenant-r');
/** Bearer token of RELAY_USER, valid whatever the test clock says. */
export const RELAY_USER_TOKEN = RELAY_USER.token({ expiresIn: 10 ** 9 });

/** A valid `POST /api/relay/tickets` body, with overrides. */
export function aTicketRequest(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    profile_id: 'profile-7',
    connection_id: 'conn-9',
    callback_url: 'http://127.0.0.1:5173/oauth/done',
    ttl_seconds: 60,
    ...over,
  };
}

/** Asserts the headers every relay response carries. */
export function expectRelayHeaders(res: request.Response): void {
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
}

/** Asserts a problem+json rejection with this status and code, the relay headers, and no Location. */
export function expectRejected(res: request.Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.headers.location).toBeUndefined();
  expectRelayHeaders(res);
}
