import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { CALLBACK, RELAY_KEY } from './relay-fixtures';

/** Material the fuzz mutates: consumed genuine tickets and signers for hand-made payloads. */
export interface FuzzInputs {
  /** Genuine tickets already resolved once (so any input decoding back to one is a replay). */
  consumed: string[];
  /** Signs a payload valid at the moment of the call, with these field overrides, under the app's key. */
  signed: (over: Record<string, unknown>) => string;
  /** The same under a key the app does not know. */
  foreign: (over: Record<string, unknown>) => string;
}

// Node's HTTP parser answers 400 itself for raw bytes outside printable ASCII in the request target, so those
// are sent percent-encoded (as UTF-8): every input then reaches the app.
function sendable(text: string): string {
  return text.replace(/[^\x21-\x7e]+/g, pct);
}

function pct(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex').toUpperCase().replace(/../g, '%$&');
}

// Any code point, lone surrogates and controls included, mostly printable ASCII. Built from integers because
// fast-check's full-range string units build a million-entry reverse table per arbitrary, which dominated the run.
const codePoint = fc
  .oneof(
    { arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 4 },
    { arbitrary: fc.integer({ min: 0, max: 0x10ffff }), weight: 1 },
  )
  .map((c) => String.fromCodePoint(c));

/** A string of up to `maxLength` arbitrary code points. */
export function anyText(maxLength: number, minLength = 0): fc.Arbitrary<string> {
  return fc.array(codePoint, { minLength, maxLength }).map((chars) => chars.join(''));
}

const anyChar = fc.oneof(anyText(1, 1), fc.constantFrom('.', '=', '-', '_', 'A', '0', 'f', '%', '&', '+'));

const HOSTILE_CALLBACKS = [
  'https://evil.example/',
  'http://localhost/cb',
  'http://127.1/cb',
  'http://2130706433/cb',
  'http://0x7f.0.0.1/cb',
  'javascript:alert(1)',
  'careapp:x',
  'http://127.0.0.1/cb#f',
  'http://a:b@127.0.0.1/cb',
  'http://127.0.0.1/cb?code=1',
  'http://127.0.0.1/cb?state=1',
  'otherapp://x',
  '//evil.example/',
  'http://127.0.0.1:0/cb',
  'http://127.0.0.1/%2e%2e/x',
  'http://127.0.0.1\\@evil.example/',
  'careapp://x y',
  'HTTP://127.0.0.1/cb',
];

/** A ticket string: mutated genuine, hand-signed invalid, foreign-signed, spliced or plain random. */
export function fuzzTicket(inputs: FuzzInputs): fc.Arbitrary<string> {
  const genuine = fc.constantFrom(...inputs.consumed);
  const at = (t: string, i: number) => i % (t.length + 1);
  // Read the clock when each input is generated: a run lasts long enough for a fixed "now" to drift into validity.
  const nowSec = () => Math.floor(Date.now() / 1000);
  const mutated = fc.oneof(
    { arbitrary: genuine, weight: 6 },
    fc.tuple(genuine, fc.nat(), anyChar).map(([t, i, c]) => t.slice(0, at(t, i)) + c + t.slice(at(t, i) + 1)),
    fc.tuple(genuine, fc.nat(), anyChar).map(([t, i, c]) => t.slice(0, at(t, i)) + c + t.slice(at(t, i))),
    fc.tuple(genuine, fc.nat()).map(([t, i]) => t.slice(0, at(t, i)) + t.slice(at(t, i) + 1)),
    fc.tuple(genuine, fc.nat()).map(([t, i]) => t.slice(0, at(t, i))),
    fc.tuple(genuine, genuine).map(([a, b]) => `${a.split('.')[0]}.${b.split('.')[1]}`),
    genuine.map((t) => t.toUpperCase()),
    genuine.map((t) => `${t}=`),
    genuine.map((t) => t.replace('.', '..')),
    genuine.map((t) => `${t}.${t.split('.')[1]}`),
    fc.tuple(genuine, anyText(20)).map(([t, s]) => t + s),
    // Payload edited, original signature kept.
    fc.tuple(genuine, fc.constantFrom('uid', 'cid', 'cb', 'exp', 'iat', 'nonce', 'v')).map(([t, field]) => {
      const [segment, signature] = t.split('.');
      const payload = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      payload[field] =
        typeof payload[field] === 'number' ? (payload[field] as number) + 1 : `${String(payload[field])}x`;
      return `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
    }),
  );
  const signedInvalid = fc.oneof(
    fc
      .integer({ min: 1, max: 100_000 })
      .map((ago) => inputs.signed({ iat: nowSec() - ago - 120, exp: nowSec() - ago })),
    fc
      .integer({ min: 121, max: 10 ** 9 })
      .map((ttl) => inputs.signed({ iat: nowSec(), exp: nowSec() + ttl })),
    fc
      .integer({ min: 0, max: 60 })
      .map((d) => inputs.signed({ iat: nowSec() + 1000 + d, exp: nowSec() + 1000 })),
    // Far enough ahead (>= 10 min) to stay in the future until the request is sent, however slow the machine.
    fc
      .integer({ min: 600, max: 3600 })
      .map((ahead) => inputs.signed({ iat: nowSec() + ahead, exp: nowSec() + ahead + 60 })),
    fc
      .oneof(fc.constantFrom(...HOSTILE_CALLBACKS), fc.string({ maxLength: 40 }))
      .map((cb) => inputs.signed({ cb })),
    fc
      .constantFrom<Record<string, unknown>>(
        { v: 2 },
        { nonce: 'zz' },
        { uid: '' },
        { pid: ' ' },
        { iat: -1 },
        { extra: 1 },
        { exp: 1.5 },
      )
      .map((over) => inputs.signed(over)),
    fc.string({ maxLength: 80 }).map((text) => {
      const segment = Buffer.from(text).toString('base64url');
      return `${segment}.${createHmac('sha256', RELAY_KEY).update(segment).digest('hex')}`;
    }),
  );
  return fc.oneof(
    { arbitrary: mutated, weight: 5 },
    { arbitrary: signedInvalid, weight: 3 },
    { arbitrary: fc.constant(null).map(() => inputs.foreign({})), weight: 1 },
    { arbitrary: anyText(200), weight: 1 },
  );
}

const code = fc.oneof(
  { arbitrary: fc.constant('c1'), weight: 3 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 2 },
  { arbitrary: anyText(40), weight: 1 },
  { arbitrary: fc.constantFrom('', '   ', '\t', 'x'.repeat(4097)), weight: 1 },
);

/** How a value is written into the query: form-encoded, raw, or every character percent-encoded. */
const encoder = fc.constantFrom<(v: string) => string>(
  (v) => new URLSearchParams({ v }).toString().slice(2),
  (v) => sendable(v),
  (v) => pct(v),
  (v) => sendable(v).replace(/[.=&]/g, (c) => pct(c)),
);

type Pair = [string, string];

// 'none' nine times in ten, else one of the given values: most inputs should get past the presence checks.
const rarely = (...values: string[]) =>
  fc.oneof(
    { arbitrary: fc.constant('none'), weight: 9 * values.length },
    ...values.map((v) => ({ arbitrary: fc.constant(v), weight: 1 })),
  );

/** A full request target for the callback: path variant plus a query built from fuzzed parameters. */
export function fuzzQuery(inputs: FuzzInputs): fc.Arbitrary<string> {
  const ticket = fuzzTicket(inputs);
  const name = fc.oneof(
    {
      arbitrary: fc.constantFrom(
        'scope',
        'iss',
        'session_state',
        'Code',
        'STATE',
        'code[]',
        'state[a]',
        'prompt',
        'hd',
      ),
      weight: 12,
    },
    { arbitrary: fc.constantFrom('error', 'error_description'), weight: 1 },
    { arbitrary: anyText(10), weight: 3 },
  );
  const extras = fc.array(fc.tuple(name, fc.string({ maxLength: 20 })), { maxLength: 3 });
  const structured = fc
    .record({
      code,
      ticket,
      extras,
      drop: rarely('code', 'state'),
      twice: rarely('code', 'state'),
      enc: encoder,
      shuffle: fc.nat(),
    })
    .map(({ code: c, ticket: t, extras: x, drop, twice, enc, shuffle }) => {
      const pairs: Pair[] = [...x];
      if (drop !== 'code') pairs.splice(shuffle % (pairs.length + 1), 0, ['code', c]);
      if (drop !== 'state') pairs.splice((shuffle >> 4) % (pairs.length + 1), 0, ['state', t]);
      if (twice !== 'none') pairs.push([twice, twice === 'code' ? c : t]);
      return pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
    });
  const random = anyText(400).map(sendable);
  // Just past each length cap (code 4 096, ticket 8 192, query 16 384): long strings cost the most per input.
  const oversized = fc
    .tuple(fc.constantFrom(4_030, 8_130, 16_330), fc.integer({ min: 0, max: 80 }), fc.boolean())
    .map(([base, extra, inCode]) =>
      inCode
        ? `code=${'c'.repeat(base + extra)}&state=x.y`
        : `code=c1&state=${'A'.repeat(base + extra)}.${'0'.repeat(64)}`,
    );
  const query = fc.oneof(
    { arbitrary: structured, weight: 36 },
    { arbitrary: random, weight: 3 },
    { arbitrary: oversized, weight: 1 },
  );
  const path = fc.constantFrom(CALLBACK, CALLBACK, CALLBACK, `${CALLBACK}/`, '/api/Relay/CALLBACK');
  return fc.tuple(path, query).map(([p, q]) => `${p}?${q}`);
}
