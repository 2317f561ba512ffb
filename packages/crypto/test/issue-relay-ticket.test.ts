import { RelayError, issueRelayTicket } from '../src';
import type { IssueInput, RelayKeys } from '../src';
import { anIssueInput, exampleKeys, fixedNow } from './relay-fixtures';

function issueCode(input: IssueInput, keys: RelayKeys = exampleKeys(), companionScheme?: string): string {
  try {
    issueRelayTicket(input, keys, { now: fixedNow, companionScheme });
  } catch (error) {
    if (error instanceof RelayError) return error.code;
    throw error;
  }
  return 'ISSUED';
}

describe('issueRelayTicket input checks', () => {
  it.each([1, 60, 120])('accepts a ttl of %s seconds', (ttlSeconds) => {
    expect(issueCode(anIssueInput({ ttlSeconds }))).toBe('ISSUED');
  });

  it.each([0, -1, 121, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '60' as unknown as number])(
    'rejects a ttl of %s with RELAY_INVALID_TTL',
    (ttlSeconds) => {
      expect(issueCode(anIssueInput({ ttlSeconds }))).toBe('RELAY_INVALID_TTL');
    },
  );

  it.each([
    ['blank uid', { uid: '  ' }],
    ['empty pid', { pid: '' }],
    ['control character in cid', { cid: 'conn\n1' }],
    ['overlong uid', { uid: 'u'.repeat(257) }],
    ['non-string pid', { pid: 42 as unknown as string }],
  ])('rejects a %s with RELAY_INVALID_INPUT', (_name, overrides) => {
    expect(issueCode(anIssueInput(overrides))).toBe('RELAY_INVALID_INPUT');
  });

  it('rejects a callback outside the allowlist with RELAY_CALLBACK_NOT_ALLOWED', () => {
    expect(issueCode(anIssueInput({ cb: 'https://evil.example/cb' }))).toBe('RELAY_CALLBACK_NOT_ALLOWED');
  });

  it('accepts a deep link of the configured companion scheme only', () => {
    expect(issueCode(anIssueInput({ cb: 'careapp://oauth/callback' }))).toBe('ISSUED');
    expect(issueCode(anIssueInput({ cb: 'myapp://oauth/callback' }), exampleKeys(), 'myapp')).toBe('ISSUED');
    expect(issueCode(anIssueInput({ cb: 'careapp://oauth/callback' }), exampleKeys(), 'myapp')).toBe(
      'RELAY_CALLBACK_NOT_ALLOWED',
    );
  });

  it.each(['https', 'javascript', 'Care App', ''])(
    'refuses %j as companion scheme configuration',
    (scheme) => {
      expect(issueCode(anIssueInput({ cb: 'careapp://x/y' }), exampleKeys(), scheme)).toBe(
        'RELAY_INVALID_COMPANION_SCHEME',
      );
    },
  );

  it.each([
    ['a 31-character key', { current: 'k'.repeat(31) }],
    ['a 16-emoji key (32 UTF-16 units, 16 characters)', { current: '\u{1F511}'.repeat(16) }],
    ['a 31-byte Buffer key', { current: Buffer.alloc(31, 1) }],
    ['a short previous key', { current: 'k'.repeat(32), previous: ['short'] }],
  ])('refuses %s with RELAY_INVALID_KEY', (_name, keys) => {
    expect(issueCode(anIssueInput(), keys as RelayKeys)).toBe('RELAY_INVALID_KEY');
  });

  it('accepts a 32-character string key and a 32-byte Buffer key', () => {
    expect(issueCode(anIssueInput(), { current: 'k'.repeat(32) })).toBe('ISSUED');
    expect(issueCode(anIssueInput(), { current: Buffer.alloc(32, 7) })).toBe('ISSUED');
  });

  it('refuses a random source that does not return 16 bytes', () => {
    expect(() =>
      issueRelayTicket(anIssueInput(), exampleKeys(), { now: fixedNow, randomBytes: () => Buffer.alloc(8) }),
    ).toThrow(expect.objectContaining({ code: 'RELAY_INVALID_INPUT' }));
  });

  it('signs with the current key, never a previous one', () => {
    const withPrevious = issueRelayTicket(
      anIssueInput(),
      { current: 'c'.repeat(32), previous: ['p'.repeat(32)] },
      {
        now: fixedNow,
      },
    );
    const currentOnly = issueRelayTicket(
      anIssueInput(),
      { current: 'c'.repeat(32) },
      {
        now: fixedNow,
        randomBytes: () => Buffer.from(withPrevious.payload.nonce, 'hex'),
      },
    );
    expect(withPrevious.ticket).toBe(currentOnly.ticket);
  });
});
