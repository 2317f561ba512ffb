import fc from 'fast-check';
import { AppError } from '@care/service-kit';
import {
  MAX_CALLBACK_PARAMETERS,
  MAX_CALLBACK_QUERY_LENGTH,
  rawQueryOf,
  readCallbackParameters,
} from '../../src/relay/relay.query';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err instanceof AppError ? err.code : 'NOT_AN_APP_ERROR';
  }
}

const RESERVED = new Set(['code', 'state', 'error', 'error_description', 'iss']);
const extraName = fc.string({ minLength: 1, maxLength: 12 }).filter((n) => !RESERVED.has(n));

describe('readCallbackParameters', () => {
  it('returns the decoded code and state among any unknown extra parameters, in any order', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 64, unit: 'grapheme' }),
        fc.string({ maxLength: 64, unit: 'grapheme' }),
        fc.array(fc.tuple(extraName, fc.string({ maxLength: 16 })), {
          maxLength: MAX_CALLBACK_PARAMETERS - 2,
        }),
        fc.nat(),
        (code, state, extras, at) => {
          const pairs: Array<[string, string]> = [...extras];
          pairs.splice(at % (pairs.length + 1), 0, ['code', code]);
          pairs.splice((at >> 3) % (pairs.length + 1), 0, ['state', state]);
          const query = new URLSearchParams(pairs).toString();
          expect(readCallbackParameters(query)).toEqual({ code, state });
        },
      ),
    );
  });

  it('rejects code or state given twice, whatever the values', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('code', 'state'),
        fc.string({ maxLength: 8 }),
        fc.string({ maxLength: 8 }),
        (name, a, b) => {
          const query = new URLSearchParams([
            [name, a],
            ['other', 'x'],
            [name, b],
          ]).toString();
          expect(codeOf(() => readCallbackParameters(query))).toBe('RELAY_REPEATED_PARAMETER');
        },
      ),
    );
  });

  it('treats array and object spellings as unknown names, so the value is missing rather than a non-string', () => {
    expect(readCallbackParameters('code[]=a&state[x]=b')).toEqual({ code: undefined, state: undefined });
  });

  it('reads an OAuth error response (error, error_description, state) and the iss of either kind of response', () => {
    expect(
      readCallbackParameters(
        'error=access_denied&error_description=End-User+aborted&state=t&iss=https%3A%2F%2Fidp.example&error_uri=x',
      ),
    ).toEqual({
      code: undefined,
      state: 't',
      iss: 'https://idp.example',
      error: 'access_denied',
      errorDescription: 'End-User aborted',
    });
    expect(readCallbackParameters('code=c&state=t&iss=')).toEqual({ code: 'c', state: 't', iss: '' });
  });

  it('rejects an error next to a code, and iss, error or error_description given twice', () => {
    expect(codeOf(() => readCallbackParameters('code=c&error=access_denied&state=t'))).toBe(
      'RELAY_INVALID_PROVIDER_ERROR',
    );
    for (const query of [
      'code=c&state=t&iss=https%3A%2F%2Fa&iss=https%3A%2F%2Fb',
      'error=a&error=b&state=t',
      'error=a&error_description=x&error_description=y&state=t',
    ])
      expect(codeOf(() => readCallbackParameters(query))).toBe('RELAY_REPEATED_PARAMETER');
  });

  it('rejects more than the allowed number of parameters and a query over the length cap', () => {
    const many = Array.from({ length: MAX_CALLBACK_PARAMETERS + 1 }, (_, i) => `p${i}=1`).join('&');
    expect(codeOf(() => readCallbackParameters(many))).toBe('RELAY_TOO_MANY_PARAMETERS');
    expect(
      codeOf(() => readCallbackParameters(`code=a&state=b&p=${'x'.repeat(MAX_CALLBACK_QUERY_LENGTH)}`)),
    ).toBe('RELAY_PARAMETER_TOO_LONG');
    expect(
      codeOf(() => readCallbackParameters(`p=${'x'.repeat(MAX_CALLBACK_QUERY_LENGTH - 2)}`)),
    ).toBeUndefined();
  });

  it('never throws anything but a relay AppError for arbitrary raw query text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: 'binary' }), (raw) => {
        const code = codeOf(() => readCallbackParameters(raw));
        expect(code === undefined || code.startsWith('RELAY_')).toBe(true);
      }),
    );
  });
});

describe('rawQueryOf', () => {
  it('returns the text after the first question mark, or nothing', () => {
    expect(rawQueryOf('/api/relay/callback?code=a?b&state=c')).toBe('code=a?b&state=c');
    expect(rawQueryOf('/api/relay/callback')).toBe('');
  });
});
