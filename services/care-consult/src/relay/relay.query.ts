import { AppError } from '@care/service-kit';

/**
 * Longest raw query string of a callback, in characters. A ticket is at most 8 192 characters and needs no
 * escaping; a 4 096-character code can triple when percent-encoded; providers add a few short parameters.
 * Node's own 16 KiB header limit answers 431 before this is reached on a real socket.
 */
export const MAX_CALLBACK_QUERY_LENGTH = 16_384;

/** Most query parameters a callback may carry (providers add `scope`, `session_state`... to ours). */
export const MAX_CALLBACK_PARAMETERS = 32;

/**
 * The parameters the relay reads from a callback (ADR 0500, 0504): `code` and `state` of a successful authorization
 * response, `error` and `error_description` of an error response (RFC 6749 section 4.1.2.1), and `iss` of either
 * (RFC 9207). Every other parameter (`scope`, `session_state`, `error_uri`...) is ignored and never forwarded.
 */
export interface CallbackParameters {
  code: string | undefined;
  state: string | undefined;
  iss?: string | undefined;
  error?: string | undefined;
  errorDescription?: string | undefined;
}

// Query name -> field of CallbackParameters. Each may appear at most once.
const READ: ReadonlyMap<string, keyof CallbackParameters> = new Map([
  ['code', 'code'],
  ['state', 'state'],
  ['iss', 'iss'],
  ['error', 'error'],
  ['error_description', 'errorDescription'],
]);

function reject(code: string, message: string): never {
  throw new AppError(code, message, 400);
}

/**
 * Reads the relay's parameters from the raw query string of a callback (the text after `?`), independent of the
 * app's query parser setting, so an array or object form (`code[]=`, `code[a]=`) can never slip through as a
 * non-string. Policy, each a 400 problem and never a redirect:
 * - longer than MAX_CALLBACK_QUERY_LENGTH: RELAY_PARAMETER_TOO_LONG;
 * - more than MAX_CALLBACK_PARAMETERS pairs: RELAY_TOO_MANY_PARAMETERS;
 * - `code`, `state`, `iss`, `error` or `error_description` more than once: RELAY_REPEATED_PARAMETER (which one
 *   would the provider have meant?);
 * - `error` next to a `code`: RELAY_INVALID_PROVIDER_ERROR (a response is either a grant or an error).
 * Names are case-sensitive (`Code` is just an unknown parameter). The values themselves (presence, length, the
 * issuer's and the error's form) are checked by `@care/crypto` with the ticket.
 */
export function readCallbackParameters(rawQuery: string): CallbackParameters {
  if (rawQuery.length > MAX_CALLBACK_QUERY_LENGTH) {
    reject('RELAY_PARAMETER_TOO_LONG', 'the callback query is too long');
  }
  const params = new URLSearchParams(rawQuery);
  const read: CallbackParameters = { code: undefined, state: undefined };
  let count = 0;
  let repeated = false;
  for (const [name, value] of params) {
    if (++count > MAX_CALLBACK_PARAMETERS)
      reject('RELAY_TOO_MANY_PARAMETERS', 'the callback carries too many parameters');
    const field = READ.get(name);
    if (field === undefined) continue;
    if (read[field] !== undefined) repeated = true;
    read[field] = value;
  }
  if (repeated)
    reject(
      'RELAY_REPEATED_PARAMETER',
      'code, state, iss, error and error_description must each appear at most once',
    );
  if (read.error !== undefined && read.code !== undefined)
    reject('RELAY_INVALID_PROVIDER_ERROR', 'the callback carries both an error and a code');
  return read;
}

/** The raw query string of a request URL (text after the first `?`, empty when there is none). */
export function rawQueryOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? '' : url.slice(q + 1);
}
