import { AppError } from '@care/service-kit';

/**
 * Longest raw query string of a callback, in characters. A ticket is at most 8 192 characters and needs no
 * escaping; a 4 096-character code can triple when percent-encoded; providers add a few short parameters.
 * Node's own 16 KiB header limit answers 431 before this is reached on a real socket.
 */
export const MAX_CALLBACK_QUERY_LENGTH = 16_384;

/** Most query parameters a callback may carry (providers add `scope`, `iss`, `session_state`... to ours). */
export const MAX_CALLBACK_PARAMETERS = 32;

/** The two parameters the relay reads from a callback; every other parameter is ignored and never forwarded. */
export interface CallbackParameters {
  code: string | undefined;
  state: string | undefined;
}

function reject(code: string, message: string): never {
  throw new AppError(code, message, 400);
}

/**
 * Reads `code` and `state` from the raw query string of a callback (the text after `?`), independent of the
 * app's query parser setting, so an array or object form (`code[]=`, `code[a]=`) can never slip through as a
 * non-string. Policy, each a 400 problem and never a redirect:
 * - longer than MAX_CALLBACK_QUERY_LENGTH: RELAY_PARAMETER_TOO_LONG;
 * - more than MAX_CALLBACK_PARAMETERS pairs: RELAY_TOO_MANY_PARAMETERS;
 * - `code` or `state` given more than once: RELAY_REPEATED_PARAMETER (which one would the provider have meant?);
 * - an `error` parameter (RFC 6749 section 4.1.2.1 error response): RELAY_PROVIDER_ERROR, its text not echoed.
 * Names are case-sensitive (`Code` is just an unknown parameter). Presence and length of the two values are
 * then checked by `resolveRelayTicket` itself (check 1 of the spec).
 */
export function readCallbackParameters(rawQuery: string): CallbackParameters {
  if (rawQuery.length > MAX_CALLBACK_QUERY_LENGTH) {
    reject('RELAY_PARAMETER_TOO_LONG', 'the callback query is too long');
  }
  const params = new URLSearchParams(rawQuery);
  let count = 0;
  let code: string | undefined;
  let state: string | undefined;
  let codes = 0;
  let states = 0;
  let providerError = false;
  for (const [name, value] of params) {
    if (++count > MAX_CALLBACK_PARAMETERS)
      reject('RELAY_TOO_MANY_PARAMETERS', 'the callback carries too many parameters');
    if (name === 'code') {
      codes++;
      code = value;
    } else if (name === 'state') {
      states++;
      state = value;
    } else if (name === 'error') {
      providerError = true;
    }
  }
  if (codes > 1 || states > 1)
    reject('RELAY_REPEATED_PARAMETER', 'code and state must each appear at most once');
  if (providerError)
    reject('RELAY_PROVIDER_ERROR', 'the authorization server returned an error instead of a code');
  return { code, state };
}

/** The raw query string of a request URL (text after the first `?`, empty when there is none). */
export function rawQueryOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? '' : url.slice(q + 1);
}
