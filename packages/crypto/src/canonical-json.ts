import canonicalize from 'canonicalize';

/**
 * RFC 8785 (JCS) canonical JSON: keys sorted by UTF-16 code units, no whitespace, ECMAScript number and
 * string serialisation. Delegates to `canonicalize` (the reference implementation by an RFC 8785 author).
 * Throws for values JSON cannot represent (undefined, functions, symbols at the top level, NaN, Infinity).
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (typeof text !== 'string') throw new TypeError('value has no JSON representation');
  return text;
}
