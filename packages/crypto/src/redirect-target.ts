// The Location of a relay redirect: the ticket's callback URL with the parameters of the authorization response.

const FORM_SAFE = /^[A-Za-z0-9*._-]*$/;

/**
 * `callbackUrl` with the given parameters set, in order, as `URL.searchParams.set` would set them. The allowlist
 * guarantees the callback is in canonical WHATWG form, so without a query the form-encoded pairs are appended as is.
 */
function withParameters(callbackUrl: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  if (callbackUrl.includes('?')) {
    const target = new URL(callbackUrl);
    for (const [name, value] of pairs) target.searchParams.set(name, value);
    return target.href;
  }
  return `${callbackUrl}?${new URLSearchParams(pairs as Array<[string, string]>).toString()}`;
}

/**
 * The allowed callback URL with `code`, `state` and, when the provider sent one, `iss` set: the very string
 * `URL.searchParams.set` gives (a property test compares them for any callback, code and issuer). With a query
 * already present, `searchParams.set` does the work; without one (the usual case) the form-encoded pairs are
 * appended to the callback, which the allowlist guarantees is already in canonical WHATWG form, sparing the
 * re-parse that `searchParams.set` costs.
 */
export function withCodeAndState(callbackUrl: string, code: string, ticket: string, issuer?: string): string {
  if (callbackUrl.includes('?')) {
    const pairs: Array<[string, string]> = [
      ['code', code],
      ['state', ticket],
    ];
    if (issuer !== undefined) pairs.push(['iss', issuer]);
    return withParameters(callbackUrl, pairs);
  }
  // A code made only of characters the form encoder keeps as they are needs no encoding; the ticket always is.
  let target: string;
  if (FORM_SAFE.test(code)) target = `${callbackUrl}?code=${code}&state=${ticket}`;
  else {
    const query = new URLSearchParams();
    query.set('code', code);
    query.set('state', ticket);
    target = `${callbackUrl}?${query.toString()}`;
  }
  return issuer === undefined ? target : `${target}&${issPair(issuer)}`;
}

// `iss=<issuer>` form-encoded. Providers send the same issuer every time: the last one is remembered.
let lastIssuer: string | undefined;
let lastIssPair = '';
function issPair(issuer: string): string {
  if (issuer !== lastIssuer) {
    lastIssPair = new URLSearchParams({ iss: issuer }).toString();
    lastIssuer = issuer;
  }
  return lastIssPair;
}

/**
 * The allowed callback URL with the provider's error response: `error`, `error_description` (when any text is
 * left after cleaning), `state` and `iss` (when sent), in that order, as `URL.searchParams.set` would set them.
 */
export function withProviderError(
  callbackUrl: string,
  error: string,
  description: string | undefined,
  ticket: string,
  issuer?: string,
): string {
  const pairs: Array<[string, string]> = [['error', error]];
  if (description !== undefined) pairs.push(['error_description', description]);
  pairs.push(['state', ticket]);
  if (issuer !== undefined) pairs.push(['iss', issuer]);
  return withParameters(callbackUrl, pairs);
}
