import fc from 'fast-check';
import {
  InMemoryNonceStore,
  RelayError,
  canonicalJson,
  resolveRelayError,
  resolveRelayTicket,
  type RelayResolution,
  type ResolveErrorInput,
} from '../src';
import { withCodeAndState, withProviderError } from '../src/redirect-target';
import {
  FIXED_NOW_MS,
  aPayload,
  aResolveInput,
  aTicket,
  exampleKeys,
  fixedNow,
  forgeTicket,
} from './relay-fixtures';

const ISSUER = 'https://idp.example/realms/care';

async function outcome(run: Promise<RelayResolution>): Promise<string> {
  try {
    return (await run).redirect_target;
  } catch (err) {
    if (err instanceof RelayError) return err.code;
    throw err;
  }
}

function anErrorInput(relayTicket: string, over: Partial<ResolveErrorInput> = {}): ResolveErrorInput {
  return {
    relayTicket,
    error: 'access_denied',
    errorDescription: 'End-User aborted interaction',
    consumedNonces: new InMemoryNonceStore({ now: fixedNow }),
    keys: exampleKeys(),
    now: fixedNow,
    ...over,
  };
}

describe('resolveRelayTicket with an iss parameter (RFC 9207)', () => {
  it('forwards a valid iss after code and state, and nothing when none was sent', async () => {
    const ticket = aTicket();
    expect(await outcome(resolveRelayTicket(aResolveInput(ticket, { issuer: ISSUER })))).toBe(
      `http://127.0.0.1:8765/callback?code=auth-code-xyz&state=${ticket}&iss=${encodeURIComponent(ISSUER)}`,
    );
    const other = aTicket();
    expect(await outcome(resolveRelayTicket(aResolveInput(other)))).toBe(
      `http://127.0.0.1:8765/callback?code=auth-code-xyz&state=${other}`,
    );
  });

  it('rejects an invalid iss with RELAY_INVALID_ISSUER before the nonce is consumed', async () => {
    const store = new InMemoryNonceStore({ now: fixedNow });
    const ticket = aTicket();
    for (const issuer of ['', 'http://idp.example', 'https://idp.example/?x=1', 'javascript:alert(1)'])
      expect(
        await outcome(resolveRelayTicket(aResolveInput(ticket, { issuer, consumedNonces: store }))),
      ).toBe('RELAY_INVALID_ISSUER');
    expect(store.size).toBe(0);
    expect(await outcome(resolveRelayTicket(aResolveInput(ticket, { consumedNonces: store })))).toMatch(
      /^http:/,
    );
  });

  it('accepts an http loopback iss only with allowLoopbackHttpIssuer (dev profile)', async () => {
    const issuer = 'http://127.0.0.1:9000';
    expect(await outcome(resolveRelayTicket(aResolveInput(aTicket(), { issuer })))).toBe(
      'RELAY_INVALID_ISSUER',
    );
    expect(
      await outcome(resolveRelayTicket(aResolveInput(aTicket(), { issuer, allowLoopbackHttpIssuer: true }))),
    ).toContain(`&iss=${encodeURIComponent(issuer)}`);
  });
});

describe('resolveRelayError (RFC 6749 section 4.1.2.1 error response)', () => {
  it('redirects a valid ticket with error, error_description, state and iss, and consumes its nonce', async () => {
    const store = new InMemoryNonceStore({ now: fixedNow });
    const ticket = aTicket();
    const target = await outcome(
      resolveRelayError(anErrorInput(ticket, { consumedNonces: store, issuer: ISSUER })),
    );
    expect(target).toBe(
      'http://127.0.0.1:8765/callback?error=access_denied&error_description=End-User+aborted+interaction' +
        `&state=${ticket}&iss=${encodeURIComponent(ISSUER)}`,
    );
    // Spent: neither a code nor another error can use it afterwards.
    expect(await outcome(resolveRelayTicket(aResolveInput(ticket, { consumedNonces: store })))).toBe(
      'RELAY_NONCE_REPLAYED',
    );
    expect(await outcome(resolveRelayError(anErrorInput(ticket, { consumedNonces: store })))).toBe(
      'RELAY_NONCE_REPLAYED',
    );
  });

  it('forwards a cleaned, capped description and leaves it out when nothing is left', async () => {
    const noisy = await outcome(
      resolveRelayError(
        anErrorInput(aTicket(), { errorDescription: `<img src=x onerror=alert(1)>\n${'d'.repeat(400)}` }),
      ),
    );
    const description = new URL(noisy).searchParams.get('error_description') ?? '';
    expect(description).not.toMatch(/[<>\n]/);
    expect(description.length).toBeLessThanOrEqual(256);
    expect(description.startsWith('img src=x onerror=alert(1) ddd')).toBe(true);
    for (const errorDescription of [undefined, null, '\u0000\u0001']) {
      const ticket = aTicket();
      expect(await outcome(resolveRelayError(anErrorInput(ticket, { errorDescription })))).toBe(
        `http://127.0.0.1:8765/callback?error=access_denied&state=${ticket}`,
      );
    }
  });

  it('keeps the query of the callback and sets the parameters as URL.searchParams.set does', async () => {
    const ticket = aTicket({ cb: 'careapp://oauth/done?x=1' });
    expect(await outcome(resolveRelayError(anErrorInput(ticket, { errorDescription: 'a&b' })))).toBe(
      `careapp://oauth/done?x=1&error=access_denied&error_description=a%26b&state=${ticket}`,
    );
  });

  it('rejects a ticket that fails any check with its code, and nothing is consumed or forwarded', async () => {
    const store = new InMemoryNonceStore({ now: fixedNow });
    const ticket = aTicket();
    const cases: Array<[Partial<ResolveErrorInput>, string]> = [
      [{ relayTicket: '' }, 'RELAY_MISSING_PARAMETER'],
      [{ relayTicket: `${ticket.slice(0, -1)}${ticket.endsWith('0') ? '1' : '0'}` }, 'RELAY_BAD_SIGNATURE'],
      [{ relayTicket: 'not-a-ticket' }, 'RELAY_MALFORMED_TICKET'],
      [{ now: () => FIXED_NOW_MS + 3_600_000 }, 'RELAY_EXPIRED'],
      [{ error: '<script>' }, 'RELAY_INVALID_PROVIDER_ERROR'],
      [{ error: '' }, 'RELAY_INVALID_PROVIDER_ERROR'],
      [{ error: undefined }, 'RELAY_INVALID_PROVIDER_ERROR'],
      [{ issuer: 'http://idp.example' }, 'RELAY_INVALID_ISSUER'],
    ];
    for (const [over, code] of cases)
      expect(await outcome(resolveRelayError(anErrorInput(ticket, { consumedNonces: store, ...over })))).toBe(
        code,
      );
    expect(store.size).toBe(0);
  });

  it('consumes a signed ticket with a foreign callback and still forwards nothing', async () => {
    const store = new InMemoryNonceStore({ now: fixedNow });
    const ticket = forgeTicket(canonicalJson(aPayload({ cb: 'https://evil.example/' })));
    expect(await outcome(resolveRelayError(anErrorInput(ticket, { consumedNonces: store })))).toBe(
      'RELAY_CALLBACK_NOT_ALLOWED',
    );
    expect(await outcome(resolveRelayError(anErrorInput(ticket, { consumedNonces: store })))).toBe(
      'RELAY_NONCE_REPLAYED',
    );
  });
});

describe('redirect target builders against URL.searchParams.set', () => {
  const callback = fc.constantFrom(
    'http://127.0.0.1:8765/cb',
    'http://127.0.0.1/a/b?x=1',
    'careapp://oauth/cb',
    'careapp:///cb?k=v&iss=old',
  );
  const ticket = 'eyJ2IjoxfQ.0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
  const issuer = fc.option(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), { nil: undefined });
  const expected = (cb: string, pairs: Array<[string, string | undefined]>) => {
    const target = new URL(cb);
    for (const [name, value] of pairs) if (value !== undefined) target.searchParams.set(name, value);
    return target.href;
  };

  it('code, state and an optional iss', () => {
    fc.assert(
      fc.property(
        callback,
        fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
        issuer,
        (cb, code, iss) => {
          expect(withCodeAndState(cb, code, ticket, iss)).toBe(
            expected(cb, [
              ['code', code],
              ['state', ticket],
              ['iss', iss],
            ]),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('error, an optional description, state and an optional iss', () => {
    fc.assert(
      fc.property(
        callback,
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
        issuer,
        (cb, error, description, iss) => {
          expect(withProviderError(cb, error, description, ticket, iss)).toBe(
            expected(cb, [
              ['error', error],
              ['error_description', description],
              ['state', ticket],
              ['iss', iss],
            ]),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
