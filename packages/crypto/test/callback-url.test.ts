import fc from 'fast-check';
import {
  InMemoryNonceStore,
  RelayError,
  canonicalJson,
  issueRelayTicket,
  resolveRelayTicket,
  validateCallbackUrl,
} from '../src';
import { aPayload, aResolveInput, anIssueInput, exampleKeys, fixedNow, forgeTicket } from './relay-fixtures';

const RUNS = { numRuns: 300 };

function allowed(url: string): boolean {
  try {
    validateCallbackUrl(url, 'careapp');
    return true;
  } catch (error) {
    if (error instanceof RelayError && error.code === 'RELAY_CALLBACK_NOT_ALLOWED') return false;
    throw error;
  }
}

// Valid callbacks: the canonical loopback literal with an optional port, or a companion deep link.
const segment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
const path = fc.array(segment, { minLength: 0, maxLength: 3 }).map((parts) => `/${parts.join('/')}`);
const validLoopback = fc
  .tuple(fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), path)
  .map(([port, p]) => `http://127.0.0.1${port === undefined || port === 80 ? '' : `:${port}`}${p}`);
const validDeepLink = fc.tuple(segment, path).map(([host, p]) => `careapp://${host}${p}`);
const validCallback = fc.oneof(validLoopback, validDeepLink);

const hostileHosts = [
  'localhost',
  'LOCALHOST',
  'localhost.',
  '127.1',
  '127.0.1',
  '2130706433',
  '0x7f000001',
  '0x7f.0.0.1',
  '0177.0.0.1',
  '127.0.0.01',
  '127.000.000.001',
  '127.0.0.1.',
  '127.0.0.%31',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[0:0:0:0:0:0:0:1]',
  '127.0.0.2',
  '127.255.255.254',
  '0.0.0.0',
  '0',
  '127.0.0.1.evil.example',
  'evil.example',
  '127.0.0.1%2eevil.example',
];
const hostileHost = fc.oneof(
  fc.constantFrom(...hostileHosts),
  fc.domain().filter((d) => d !== '127.0.0.1'),
  fc.ipV4().filter((ip) => ip !== '127.0.0.1'),
  fc.ipV6().map((ip) => `[${ip}]`),
);
const byHost = fc
  .tuple(hostileHost, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), path)
  .map(([host, port, p]) => `http://${host}${port === undefined ? '' : `:${port}`}${p}`);
const otherScheme = fc.oneof(
  fc.constantFrom(
    'https',
    'HTTP',
    'Http',
    'ftp',
    'file',
    'ws',
    'wss',
    'javascript',
    'data',
    'CAREAPP',
    'careapps',
    'care',
  ),
  fc.stringMatching(/^[a-z][a-z0-9+.-]{0,10}$/).filter((s) => s !== 'http' && s !== 'careapp'),
);
const byScheme = fc.tuple(otherScheme, path).map(([scheme, p]) => `${scheme}://127.0.0.1${p}`);
const byOpaqueForm = fc
  .tuple(fc.constantFrom('careapp:', 'careapp:/', 'http:', 'http:/', 'careapp://'), path)
  .map(([prefix, p]) => (prefix === 'careapp://' ? prefix : `${prefix}${p.slice(1)}`));
const userinfo = fc.stringMatching(/^[a-z0-9]{0,8}(:[a-z0-9]{0,8})?$/);
const byUserinfo = fc
  .tuple(userinfo, fc.constantFrom('http://127.0.0.1:8765', 'careapp://host'), path)
  .map(([user, origin, p]) => origin.replace('//', `//${user}@`) + p);
const injected = fc.constantFrom(
  ' ',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\\',
  '#',
  '#frag',
  '%2e',
  '%2E',
  '%2e%2e',
  '%2f',
  '%2F',
  '%5c',
  '%00',
  '%0a',
  '%1F',
);
const byInjection = fc.tuple(validCallback, injected, fc.nat()).map(([url, bad, at]) => {
  const i = at % (url.length + 1);
  return url.slice(0, i) + bad + url.slice(i);
});
const param = fc.tuple(
  fc.constantFrom('code', 'state', 'c%6Fde', 'st%61te'),
  fc.stringMatching(/^[a-z0-9]{0,6}$/),
);
const byQuery = fc
  .tuple(validCallback, fc.array(fc.tuple(segment, segment), { maxLength: 2 }), param)
  .map(([url, extra, [k, v]]) => `${url}?${[...extra.map(([a, b]) => `${a}=${b}`), `${k}=${v}`].join('&')}`);
const byNonCanonical = fc
  .tuple(validCallback, fc.constantFrom('/./x', '/../x', '/a/..', '/.', '/..'))
  .map(([url, tail]) => url + tail);
const hostileCallback = fc.oneof(
  byHost,
  byScheme,
  byOpaqueForm,
  byUserinfo,
  byInjection,
  byQuery,
  byNonCanonical,
);

describe('validateCallbackUrl examples', () => {
  it.each([
    'http://127.0.0.1/',
    'http://127.0.0.1:8765/callback',
    'http://127.0.0.1:65535/a/b?x=1',
    'careapp://oauth/callback',
    'careapp:///callback',
  ])('accepts %s and returns it parsed', (url) => {
    expect(validateCallbackUrl(url, 'careapp').href).toBe(url);
  });

  it.each([
    'http://127.0.0.1',
    'http://127.0.0.1:80/cb',
    'http://127.0.0.1:0/cb',
    'http://localhost:8765/cb',
    'http://127.1:8765/cb',
    'http://2130706433/cb',
    'http://0x7f.0.0.1/cb',
    'http://0177.0.0.1/cb',
    'http://[::1]:8765/cb',
    'http://127.0.0.2/cb',
    'https://127.0.0.1/cb',
    'http://user:pw@127.0.0.1/cb',
    'http://@127.0.0.1/cb',
    'http://127.0.0.1/cb#x',
    'http://127.0.0.1/cb#',
    'http:\\\\127.0.0.1\\cb',
    'http://127.0.0.1/%2e%2e/cb',
    'http://127.0.0.1/a/../cb',
    'http://127.0.0.1/cb?code=1',
    'http://127.0.0.1/cb?a&state',
    ' http://127.0.0.1/cb',
    'http://127.0.0.1/c b',
    'careapp://',
    'careapp:cb',
    'careapp://h:1234/cb',
    'careapp://u@h/cb',
    'CAREAPP://h/cb',
    'javascript://127.0.0.1/%0aalert(1)',
    '//127.0.0.1/cb',
    '/cb',
    '',
  ])('rejects %j', (url) => {
    expect(allowed(url)).toBe(false);
  });

  it('refuses a non-string without throwing anything else', () => {
    expect(allowed(42 as unknown as string)).toBe(false);
  });
});

describe('callback allowlist properties', () => {
  it('accepts every generated valid callback unchanged', () => {
    fc.assert(
      fc.property(validCallback, (url) => allowed(url)),
      RUNS,
    );
  });

  it('accepts nothing from arbitrary strings and URLs but canonical loopback or companion links', () => {
    const candidates = fc.oneof(
      fc.string(),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      hostileCallback,
    );
    fc.assert(
      fc.property(candidates, (url) => {
        if (!allowed(url)) return;
        const parsed = new URL(url);
        expect(parsed.href).toBe(url);
        expect(parsed.username + parsed.password + parsed.hash).toBe('');
        expect(
          (parsed.protocol === 'http:' && parsed.host.replace(/:\d+$/, '') === '127.0.0.1') ||
            (parsed.protocol === 'careapp:' && url.startsWith('careapp://')),
        ).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('rejects every hostile variant at issuance', () => {
    fc.assert(
      fc.property(hostileCallback, (cb) => {
        expect(() => issueRelayTicket(anIssueInput({ cb }), exampleKeys(), { now: fixedNow })).toThrow(
          expect.objectContaining({ code: 'RELAY_CALLBACK_NOT_ALLOWED' }),
        );
      }),
      RUNS,
    );
  });

  it('rejects every hostile variant at resolution even in a correctly signed ticket', async () => {
    await fc.assert(
      fc.asyncProperty(hostileCallback, async (cb) => {
        const ticket = forgeTicket(canonicalJson(aPayload({ cb })));
        const input = aResolveInput(ticket, { consumedNonces: new InMemoryNonceStore({ now: fixedNow }) });
        await expect(resolveRelayTicket(input)).rejects.toMatchObject({ code: 'RELAY_CALLBACK_NOT_ALLOWED' });
      }),
      RUNS,
    );
  });

  it('keeps a valid callback and only adds code and state on resolution', async () => {
    await fc.assert(
      fc.asyncProperty(
        validCallback,
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''),
        async (cb, code) => {
          const { ticket } = issueRelayTicket(anIssueInput({ cb }), exampleKeys(), { now: fixedNow });
          const result = await resolveRelayTicket(aResolveInput(ticket, { authorizationCode: code }));
          const target = new URL(result.redirect_target);
          expect(`${target.protocol}//${target.host}${target.pathname}`).toBe(cb);
          expect(target.searchParams.getAll('code')).toEqual([code]);
          expect(target.searchParams.getAll('state')).toEqual([ticket]);
          expect(target.hash).toBe('');
        },
      ),
      RUNS,
    );
  });
});
