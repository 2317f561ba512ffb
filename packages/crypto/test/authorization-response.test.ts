import fc from 'fast-check';
import {
  MAX_ERROR_DESCRIPTION_LENGTH,
  MAX_ISSUER_LENGTH,
  RelayError,
  cleanErrorDescription,
  validateIssuer,
  validateProviderError,
} from '../src';

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'ACCEPTED';
  } catch (err) {
    return err instanceof RelayError ? err.code : 'NOT_A_RELAY_ERROR';
  }
}

// RFC 6749 section 4.1.2.1 character set of error and error_description, without < and >.
const FORWARDABLE = /^[\x20\x21\x23-\x3b\x3d\x3f-\x5b\x5d-\x7e]*$/;

describe('validateIssuer', () => {
  it.each([
    'https://idp.example',
    'https://idp.example/',
    'https://login.example.com/tenant-1/v2.0',
    'https://idp.example:8443/realms/care',
    'https://127.0.0.1:9443',
  ])('returns the https issuer %s unchanged', (iss) => {
    expect(validateIssuer(iss)).toBe(iss);
  });

  it.each([
    ['http on a public host', 'http://idp.example'],
    ['http on loopback outside dev', 'http://127.0.0.1:8080'],
    ['an upper-case scheme', 'HTTPS://idp.example'],
    ['another scheme', 'ftp://idp.example'],
    ['no scheme', 'idp.example'],
    ['a query', 'https://idp.example/?x=1'],
    ['a fragment', 'https://idp.example/#x'],
    ['userinfo', 'https://user@idp.example'],
    ['a backslash', 'https://idp.example\\@evil.example'],
    ['a space', 'https://idp.example/a b'],
    ['a control character', 'https://idp.example/\n'],
    ['non-ASCII', 'https://idp.exämple'],
    ['markup', 'https://idp.example/<script>'],
    ['an empty value', ''],
    ['no host', 'https://'],
    ['an unparsable host', 'https://exa mple'],
    ['an over-long value', `https://idp.example/${'a'.repeat(MAX_ISSUER_LENGTH)}`],
  ])('rejects %s with RELAY_INVALID_ISSUER', (_name, iss) => {
    expect(codeOf(() => validateIssuer(iss))).toBe('RELAY_INVALID_ISSUER');
  });

  it('accepts http on a loopback host only when asked to (dev profile)', () => {
    const dev = { allowLoopbackHttp: true };
    for (const iss of ['http://127.0.0.1:8080', 'http://localhost:8080/realms/care', 'http://[::1]:9000'])
      expect(validateIssuer(iss, dev)).toBe(iss);
    for (const iss of ['http://idp.example', 'http://127.0.0.2', 'http://localhost.evil.example'])
      expect(codeOf(() => validateIssuer(iss, dev))).toBe('RELAY_INVALID_ISSUER');
  });

  it('decides the same whatever was validated before (the last accepted issuer is remembered)', () => {
    const pool = fc.constantFrom(
      'https://idp.example',
      'http://127.0.0.1:9000',
      'http://localhost',
      'http://idp.example',
      'https://idp.example/?x',
      '',
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(pool, fc.boolean()), { minLength: 1, maxLength: 12 }), (calls) => {
        const seen = new Map<string, string>();
        for (const [iss, allowLoopbackHttp] of [...calls, ...[...calls].reverse()]) {
          const code = codeOf(() => validateIssuer(iss, { allowLoopbackHttp }));
          const key = `${allowLoopbackHttp} ${iss}`;
          expect(code).toBe(seen.get(key) ?? code);
          seen.set(key, code);
        }
      }),
    );
    validateIssuer('http://127.0.0.1:9000', { allowLoopbackHttp: true });
    expect(codeOf(() => validateIssuer('http://127.0.0.1:9000'))).toBe('RELAY_INVALID_ISSUER');
    expect(codeOf(() => validateIssuer(undefined))).toBe('RELAY_INVALID_ISSUER');
  });

  it('either returns the input unchanged or throws RELAY_INVALID_ISSUER, for any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string({ maxLength: 60 })),
        fc.boolean(),
        (iss, allowLoopbackHttp) => {
          const code = codeOf(() => validateIssuer(iss, { allowLoopbackHttp }));
          expect(['ACCEPTED', 'RELAY_INVALID_ISSUER']).toContain(code);
          if (code === 'ACCEPTED') {
            expect(validateIssuer(iss, { allowLoopbackHttp })).toBe(iss);
            const url = new URL(iss);
            expect([url.search, url.hash, url.username, url.password]).toEqual(['', '', '', '']);
            expect(url.protocol === 'https:' || allowLoopbackHttp).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('validateProviderError', () => {
  it.each(['access_denied', 'invalid_scope', 'temporarily_unavailable', 'consent_required', 'x'])(
    'returns the error code %s unchanged',
    (error) => {
      expect(validateProviderError(error)).toBe(error);
    },
  );

  it.each([
    ['a missing value', undefined],
    ['an empty value', ''],
    ['a blank value', '   '],
    ['markup', '<b>denied</b>'],
    ['a quote', 'access"denied'],
    ['a control character', 'access_denied\r\nX-Injected: 1'],
    ['non-ASCII', 'zugriff_verweigert_für_dich'],
    ['more than 64 characters', 'e'.repeat(65)],
    ['an array', ['access_denied']],
  ])('rejects %s with RELAY_INVALID_PROVIDER_ERROR (never rewritten)', (_name, error) => {
    expect(codeOf(() => validateProviderError(error))).toBe('RELAY_INVALID_PROVIDER_ERROR');
  });
});

describe('cleanErrorDescription', () => {
  it('keeps plain RFC 6749 text as it is', () => {
    expect(cleanErrorDescription('End-User aborted interaction')).toBe('End-User aborted interaction');
  });

  it('turns markup and control characters into single spaces and drops what is left empty', () => {
    expect(cleanErrorDescription('<script>alert(1)</script>\r\n\tdenied')).toBe(
      'script alert(1) /script denied',
    );
    expect(cleanErrorDescription('  \u0000\u202e  ')).toBeUndefined();
    expect(cleanErrorDescription('')).toBeUndefined();
    expect(cleanErrorDescription(undefined)).toBeUndefined();
  });

  it('cuts long text to the cap', () => {
    const cleaned = cleanErrorDescription('word '.repeat(200));
    expect(cleaned?.length).toBeLessThanOrEqual(MAX_ERROR_DESCRIPTION_LENGTH);
    expect(cleaned?.startsWith('word word')).toBe(true);
  });

  it('gives capped text of the forwardable set only, without leading, trailing or double spaces, for any input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const cleaned = cleanErrorDescription(text);
        if (cleaned === undefined) return;
        expect(cleaned).toMatch(FORWARDABLE);
        expect(cleaned.length).toBeGreaterThan(0);
        expect(cleaned.length).toBeLessThanOrEqual(MAX_ERROR_DESCRIPTION_LENGTH);
        expect(cleaned).toBe(cleaned.trim());
        expect(cleaned).not.toContain('  ');
        expect(cleanErrorDescription(cleaned)).toBe(cleaned);
      }),
      { numRuns: 2000 },
    );
  });
});
