// Test-data builders shared by the relay tests: fixed keys and clock, valid inputs, and a forger that signs any
// payload text with a known key (to reach checks that come after the signature).
import { createHmac } from 'node:crypto';
import { InMemoryNonceStore, issueRelayTicket } from '../src';
import type { IssueInput, RelayKeys, ResolveInput } from '../src';

export const EXAMPLE_KEY = 'care-relay-example-key-0123456789abcdef';
export const PREVIOUS_KEY = 'care-relay-previous-key-abcdefghijklmnop';
export const OTHER_KEY = 'care-relay-unknown-key-zzzzzzzzzzzzzzzzz';
export const FIXED_NOW_MS = 1_700_000_000_000;
export const FIXED_NOW_SEC = FIXED_NOW_MS / 1000;
export const fixedNow = (): number => FIXED_NOW_MS;
export const counterBytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => i));

/** Keys with only the example key as current. */
export const exampleKeys = (): RelayKeys => ({ current: EXAMPLE_KEY });

/** A valid issuance input; override any field. */
export function anIssueInput(overrides: Partial<IssueInput> = {}): IssueInput {
  return {
    uid: 'user-123',
    pid: 'profile-456',
    cid: 'connection-789',
    cb: 'http://127.0.0.1:8765/callback',
    ttlSeconds: 120,
    ...overrides,
  };
}

/** A freshly issued ticket (random nonce) at FIXED_NOW_MS under the example key unless keys are given. */
export function aTicket(overrides: Partial<IssueInput> = {}, keys: RelayKeys = exampleKeys()): string {
  return issueRelayTicket(anIssueInput(overrides), keys, { now: fixedNow }).ticket;
}

/** Signs an arbitrary payload text (not necessarily canonical or valid) the way the format does. */
export function forgeTicket(payloadText: string, key: string = EXAMPLE_KEY): string {
  const segment = Buffer.from(payloadText, 'utf8').toString('base64url');
  return `${segment}.${createHmac('sha256', key).update(segment).digest('hex')}`;
}

/** A valid payload object for forging; override any field. */
export function aPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    v: 1,
    uid: 'user-123',
    pid: 'profile-456',
    cid: 'connection-789',
    cb: 'http://127.0.0.1:8765/callback',
    nonce: '000102030405060708090a0b0c0d0e0f',
    iat: FIXED_NOW_SEC,
    exp: FIXED_NOW_SEC + 120,
    ...overrides,
  };
}

/** Resolution input at FIXED_NOW_MS with a fresh in-memory store; override any field. */
export function aResolveInput(
  relayTicket: string | null | undefined,
  overrides: Partial<ResolveInput> = {},
): ResolveInput {
  return {
    relayTicket,
    authorizationCode: 'auth-code-xyz',
    consumedNonces: new InMemoryNonceStore({ now: fixedNow }),
    keys: exampleKeys(),
    now: fixedNow,
    ...overrides,
  };
}
