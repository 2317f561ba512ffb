import { createHmac, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { canonicalJson, type RelayTicketPayload } from '@care/crypto';
import { createLogger, type Logger } from '@care/service-kit';
import { createTestContext, type TestContext, type TestContextOptions } from '../../support/test-app';

/** Current relay key of the test apps (>= 32 characters). */
export const RELAY_KEY = 'relay-test-key-0123456789abcdef-0123456789';
/** A retired key that still verifies (RELAY_PREVIOUS_KEYS). */
export const PREVIOUS_RELAY_KEY = 'relay-retired-key-0123456789abcdef-01234';
/** A key the apps do not know. */
export const FOREIGN_RELAY_KEY = 'relay-foreign-key-0123456789abcdef-01234';

/** Environment of a relay test app: fixed keys, no rate limit unless a test sets one. */
export const RELAY_ENV: Record<string, string> = {
  RELAY_SIGNING_KEY: RELAY_KEY,
  RELAY_PREVIOUS_KEYS: PREVIOUS_RELAY_KEY,
  RELAY_CALLBACK_RATE_LIMIT: '0',
};

/** The callback path, relative to the app root. */
export const CALLBACK = '/api/relay/callback';

/**
 * Signs any payload in the relay ticket format of ADR 0502 (base64url of RFC 8785 JSON, a dot, hex HMAC-SHA256 of
 * the segment), written here independently of @care/crypto's issuer so tests can build tickets it would refuse to issue.
 */
export function signTicket(payload: object, key: string = RELAY_KEY): string {
  const segment = Buffer.from(canonicalJson(payload), 'utf8').toString('base64url');
  return `${segment}.${createHmac('sha256', key).update(segment).digest('hex')}`;
}

/** A well-formed payload valid at `nowSec`, with overrides. */
export function aPayload(nowSec: number, overrides: Partial<RelayTicketPayload> = {}): RelayTicketPayload {
  return {
    v: 1,
    uid: 'user-1',
    pid: 'profile-1',
    cid: 'connection-1',
    cb: 'http://127.0.0.1:5173/callback',
    nonce: randomBytes(16).toString('hex'),
    iat: nowSec,
    exp: nowSec + 60,
    ...overrides,
  };
}

/** `code=...&state=...` form-encoded, in that order. */
export function callbackQuery(code: string, state: string): string {
  return new URLSearchParams({ code, state }).toString();
}

/** A debug-level logger whose raw output lines are kept, for "never logged" assertions. */
export function capturingLogger(): {
  logger: Logger;
  text: () => string;
  lines: () => Array<Record<string, unknown>>;
} {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger({ name: 'care-consult-relay-test', level: 'debug', destination });
  const text = () => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** A test app with the relay keys configured; `env` adds to (or replaces) RELAY_ENV. */
export function relayTestContext(opts: TestContextOptions = {}): Promise<TestContext> {
  return createTestContext({ ...opts, env: { ...RELAY_ENV, ...opts.env } });
}
