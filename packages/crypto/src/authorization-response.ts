import { RelayError } from './relay-error';

/** Longest `iss` (RFC 9207 issuer identifier) forwarded, in characters. */
export const MAX_ISSUER_LENGTH = 2048;

/** Longest provider `error` code forwarded, in characters (registered codes are at most 32). */
export const MAX_PROVIDER_ERROR_LENGTH = 64;

/** Longest `error_description` forwarded, in characters; longer text is cut (ADR 0504). */
export const MAX_ERROR_DESCRIPTION_LENGTH = 256;

// Printable ASCII without space; then characters that have no business in an issuer URL: `\` (read as `/` by WHATWG
// parsers), `@` (userinfo), `?` and `#` (RFC 8414 issuers have no query or fragment) and the markup/template ones.
const ISSUER_CHARACTERS = /^[\x21-\x7e]+$/;
const ISSUER_FORBIDDEN = /[\\@?#"<>`{}|^]/;
// Loopback hosts an `http` issuer may name in the dev profile (a provider running on the developer's machine).
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
// RFC 6749 section 4.1.2.1 allows %x20-21 / %x23-5B / %x5D-7E in `error` and `error_description`; `<` and `>` are
// taken out too, so nothing forwarded can open a tag in an app that renders the text as HTML.
const ERROR_CODE = /^[\x20\x21\x23-\x3b\x3d\x3f-\x5b\x5d-\x7e]+$/;
const NOT_DESCRIPTION_TEXT = /[^\x20\x21\x23-\x3b\x3d\x3f-\x5b\x5d-\x7e]+/g;
const SPACES = / {2,}/g;

/** Options of {@link validateIssuer}. */
export interface IssuerOptions {
  /** Accept `http://` on a loopback host (127.0.0.1, localhost, [::1]); for the dev profile only. */
  allowLoopbackHttp?: boolean;
}

/**
 * Checks the `iss` parameter of an authorization response (RFC 9207) before it is forwarded, and returns it
 * unchanged: the client compares it byte for byte with the issuer it discovered, so it is never re-serialised.
 * Accepted: `https://host[:port][/path]` (lowercase scheme, a host, no userinfo, query or fragment), printable ASCII
 * without spaces, at most MAX_ISSUER_LENGTH characters; with `allowLoopbackHttp` also `http://` on a loopback host.
 * Throws RelayError RELAY_INVALID_ISSUER otherwise.
 */
export function validateIssuer(issuer: unknown, options: IssuerOptions = {}): string {
  const allowLoopbackHttp = options.allowLoopbackHttp === true;
  if (
    typeof issuer === 'string' &&
    issuer === lastIssuer &&
    allowLoopbackHttp === lastIssuerAllowedLoopbackHttp
  )
    return issuer;
  if (
    typeof issuer !== 'string' ||
    issuer.length > MAX_ISSUER_LENGTH ||
    !ISSUER_CHARACTERS.test(issuer) ||
    ISSUER_FORBIDDEN.test(issuer)
  ) {
    return invalidIssuer();
  }
  const https = issuer.startsWith('https://');
  if (!https && !(allowLoopbackHttp && issuer.startsWith('http://'))) return invalidIssuer();
  let parsed: URL;
  try {
    parsed = new URL(issuer);
  } catch {
    return invalidIssuer();
  }
  if (parsed.hostname === '' || parsed.username !== '' || parsed.password !== '') return invalidIssuer();
  if (!https && !LOOPBACK_HOSTS.has(parsed.hostname)) return invalidIssuer();
  lastIssuer = issuer;
  lastIssuerAllowedLoopbackHttp = allowLoopbackHttp;
  return issuer;
}

// The last issuer accepted and the option it was accepted under. A relay serves one or a few providers, each sending
// the same `iss` every time, and the decision is a pure function of the string and the option, so a repeat skips the
// URL parse; only accepted strings are remembered, so a refused one is checked (and refused) again every time.
let lastIssuer: string | undefined;
let lastIssuerAllowedLoopbackHttp = false;

function invalidIssuer(): never {
  throw new RelayError('RELAY_INVALID_ISSUER', 'the iss parameter is not an acceptable issuer identifier');
}

/**
 * Checks the `error` code of a provider's error response (RFC 6749 section 4.1.2.1): 1 to MAX_PROVIDER_ERROR_LENGTH
 * characters of the RFC's set without `<` and `>`, not blank. Returned unchanged (apps switch on it), or RelayError
 * RELAY_INVALID_PROVIDER_ERROR: a code is never rewritten into another one.
 */
export function validateProviderError(error: unknown): string {
  if (
    typeof error !== 'string' ||
    error.length > MAX_PROVIDER_ERROR_LENGTH ||
    !ERROR_CODE.test(error) ||
    error.trim() === ''
  ) {
    throw new RelayError('RELAY_INVALID_PROVIDER_ERROR', 'the provider error response cannot be forwarded');
  }
  return error;
}

/**
 * The provider's `error_description` as it is forwarded, or undefined when nothing is left: each run of characters
 * outside the RFC 6749 set (controls, non-ASCII, `"`, `\`) and of `<`/`>` becomes one space, spaces are collapsed
 * and trimmed, and the text is cut to MAX_ERROR_DESCRIPTION_LENGTH characters. Human text, so it is cleaned rather
 * than refused: the app still learns the `error` code.
 */
export function cleanErrorDescription(description: unknown): string | undefined {
  if (typeof description !== 'string') return undefined;
  const text = description
    .replace(NOT_DESCRIPTION_TEXT, ' ')
    .replace(SPACES, ' ')
    .trim()
    .slice(0, MAX_ERROR_DESCRIPTION_LENGTH)
    .trimEnd();
  return text === '' ? undefined : text;
}
