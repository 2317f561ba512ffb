import { RelayError } from './relay-error';

/** Longest callback URL accepted, in characters. */
export const MAX_CALLBACK_URL_LENGTH = 2048;

/** Default deep-link scheme of the paired companion app. */
export const DEFAULT_COMPANION_SCHEME = 'careapp';

const LOOPBACK_PREFIX = 'http://127.0.0.1';
const SCHEME_PATTERN = /^[a-z][a-z0-9+.-]{0,31}$/;
// Schemes with WHATWG "special" parsing or script/data semantics can never be a companion deep link.
const FORBIDDEN_SCHEMES = new Set([
  'http',
  'https',
  'ws',
  'wss',
  'ftp',
  'file',
  'javascript',
  'data',
  'blob',
  'about',
  'vbscript',
]);
// Whitespace (ASCII and Unicode), C0/C1 controls, backslash and the fragment marker, anywhere in the raw string.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_RAW = /[\s\u0000-\u001f\u007f-\u009f\\#]/;
// Percent-encoded dot, slash, backslash and control characters: decoded differently by different receivers.
const FORBIDDEN_ENCODED = /%(?:2e|2f|5c|[01][0-9a-f]|7f)/i;

// The last companion scheme accepted; starts as the default, which is valid.
let lastAcceptedScheme: string = DEFAULT_COMPANION_SCHEME;

function reject(): never {
  throw new RelayError('RELAY_CALLBACK_NOT_ALLOWED', 'callback URL is not on the allowlist');
}

/** Checks a companion scheme from configuration; throws RELAY_INVALID_COMPANION_SCHEME when unusable. */
export function assertCompanionScheme(scheme: string): void {
  // The decision is a pure function of the string: the last accepted one (the configured scheme) is remembered.
  if (scheme === lastAcceptedScheme) return;
  if (typeof scheme !== 'string' || !SCHEME_PATTERN.test(scheme) || FORBIDDEN_SCHEMES.has(scheme)) {
    throw new RelayError(
      'RELAY_INVALID_COMPANION_SCHEME',
      'companion scheme is not a usable custom URL scheme',
    );
  }
  lastAcceptedScheme = scheme;
}

/**
 * Validates a callback URL against the allowlist and returns it parsed. Accepted forms, nothing else:
 * `http://127.0.0.1[:port]/path[?query]` and `<companionScheme>://<rest>`. The raw string must already be in
 * WHATWG canonical form (parse + re-serialise gives the same string), which rejects `localhost`-style and
 * non-canonical IPv4 hosts (`127.1`, `2130706433`, `0x7f.0.0.1`), default ports, dot segments and unescaped
 * characters. Also rejected: userinfo, fragments, backslashes, whitespace and control characters, percent-encoded
 * dots/slashes/backslashes/controls, port 0, ports on companion links, and a query that already has `code` or
 * `state`. Throws RelayError RELAY_CALLBACK_NOT_ALLOWED.
 */
export function validateCallbackUrl(url: string, companionScheme: string = DEFAULT_COMPANION_SCHEME): URL {
  assertCompanionScheme(companionScheme);
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_CALLBACK_URL_LENGTH) reject();
  if (FORBIDDEN_RAW.test(url) || FORBIDDEN_ENCODED.test(url)) reject();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return reject();
  }
  if (parsed.href !== url || parsed.username !== '' || parsed.password !== '' || parsed.hash !== '') reject();
  if (parsed.search !== '') {
    const query = new URLSearchParams(parsed.search);
    if (query.has('code') || query.has('state')) reject();
  }
  if (parsed.protocol === 'http:') {
    // Exactly the canonical loopback literal (RFC 8252 section 7.3); other 127/8 addresses and [::1] are refused
    // because no client of ours listens there and each extra form is one more thing to get wrong.
    const rest = url.slice(LOOPBACK_PREFIX.length);
    if (!url.startsWith(LOOPBACK_PREFIX) || parsed.hostname !== '127.0.0.1') reject();
    if (!(rest.startsWith('/') || rest.startsWith(':'))) reject();
    if (parsed.port === '0') reject();
    return parsed;
  }
  if (parsed.protocol === `${companionScheme}:`) {
    const rest = url.slice(companionScheme.length + 3);
    if (!url.startsWith(`${companionScheme}://`) || rest.length === 0 || parsed.port !== '') reject();
    return parsed;
  }
  return reject();
}

// Callback URLs that passed validateCallbackUrl under `allowedScheme`. Validation is a pure function of the URL
// string and the scheme, so a hit is exactly as valid; only accepted URLs are stored, keyed by the exact string, so
// a rejected one is validated (and rejected) again every time. A call with another scheme empties the cache (one
// service has one scheme). At most ALLOWED_CACHE_SIZE entries: the oldest is dropped first.
const ALLOWED_CACHE_SIZE = 1024;
const allowedCache = new Set<string>();
let allowedScheme: string | undefined;
// The last URL accepted under allowedScheme: one string comparison instead of hashing it for the set.
let lastAllowed: string | undefined;

/**
 * Same decision as validateCallbackUrl without returning the parsed URL; remembers recent accepted URLs so the
 * resolution of many tickets for one runtime's callback parses it once.
 */
export function assertCallbackAllowed(url: string, companionScheme: string): void {
  const sameScheme = typeof url === 'string' && companionScheme === allowedScheme;
  if (sameScheme && (url === lastAllowed || allowedCache.has(url))) {
    lastAllowed = url;
    return;
  }
  validateCallbackUrl(url, companionScheme);
  if (companionScheme !== allowedScheme) {
    allowedCache.clear();
    allowedScheme = companionScheme;
  }
  lastAllowed = url;
  if (allowedCache.size >= ALLOWED_CACHE_SIZE)
    allowedCache.delete(allowedCache.values().next().value as string);
  allowedCache.add(url);
}
