import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { AppError, ValidationError } from './errors';

/**
 * Names that reach `Object.prototype` when used as a property key. A path segment or a JSON key with one of these
 * names is refused before any route sees it (ADR 0005): a handler that looks a parameter up in a plain object
 * (`registry[name]`) would otherwise find the prototype instead of "not found".
 */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Default deepest nesting of a JSON body (objects and arrays); the platform's bodies are a few levels deep. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

// C0 controls and DEL; tab, CR and LF are ordinary in text and allowed where text is.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;

/** True when `s` holds a C0 control character other than tab, CR and LF, or DEL. */
export function hasControlCharacters(s: string): boolean {
  return CONTROL.test(s);
}

/** True when `s` holds an unpaired UTF-16 surrogate (not encodable as UTF-8, refused by PostgreSQL's jsonb). */
export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function badPath(detail: string, code = 'MALFORMED_PATH'): ValidationError {
  return new ValidationError('The request path is malformed', [{ pointer: '/path', detail }], code);
}

/**
 * Checks the raw request target before routing: every path segment must percent-decode (no `%ff`, no `%2`), decode
 * to no control character, and not name a prototype key; the query string must decode to no NUL or control
 * character. Express would otherwise throw a URIError from its parameter decoding, or hand the handler a string
 * PostgreSQL refuses.
 */
export function requestTargetGuard(): RequestHandler {
  return (req, _res, next) => {
    const url = req.url;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    for (const segment of path.split('/')) {
      if (segment === '') continue;
      let decoded: string;
      try {
        decoded = segment.includes('%') ? decodeURIComponent(segment) : segment;
      } catch {
        return next(badPath('a path segment is not valid percent-encoded UTF-8'));
      }
      if (ANY_CONTROL.test(decoded)) return next(badPath('a path segment contains a control character'));
      if (PROTOTYPE_KEYS.has(decoded))
        return next(badPath(`"${decoded}" is not allowed as a path segment`, 'FORBIDDEN_PATH_SEGMENT'));
    }
    if (q >= 0) {
      const query = url.slice(q + 1);
      let decoded: string;
      try {
        decoded = decodeURIComponent(query.replace(/\+/g, ' '));
      } catch {
        return next(
          new ValidationError(
            'The query string is malformed',
            [{ pointer: '/query', detail: 'is not valid percent-encoded UTF-8' }],
            'MALFORMED_QUERY',
          ),
        );
      }
      if (CONTROL.test(decoded)) {
        return next(
          new ValidationError(
            'The query string is malformed',
            [{ pointer: '/query', detail: 'contains a control character' }],
            'MALFORMED_QUERY',
          ),
        );
      }
    }
    next();
  };
}

/** A body refused by the JSON front door; carries body-parser's `status` so it keeps its 400. */
class JsonBodyError extends AppError {
  constructor(code: string, message: string, detail: string) {
    super(code, message, 400, { errors: [{ pointer: '/body', detail }] });
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * Scans a JSON body before it is parsed (body-parser's `verify` hook) and refuses, as a 400: nesting deeper than
 * `maxDepth` (a 10,000-deep array parses, then overflows the stack of whoever walks or re-serialises it), a key
 * that names a prototype property, a `\u0000` escape and an unpaired surrogate escape (PostgreSQL stores neither).
 * One linear pass over the bytes, no allocation unless a key or an escape needs a closer look; malformed JSON is
 * left for the parser to report.
 */
export function checkJsonBody(buf: Buffer, maxDepth: number = DEFAULT_MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  let stringEscapes = false;
  let lastString: [number, number, boolean] | undefined;
  let escaped = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i]!;
    if (inString) {
      if (escaped) {
        escaped = false;
        if (c === 0x75 /* u */) i = checkUnicodeEscape(buf, i);
      } else if (c === BACKSLASH) escaped = stringEscapes = true;
      else if (c === QUOTE) {
        inString = false;
        lastString = [stringStart, i, stringEscapes];
      }
      continue;
    }
    if (c === QUOTE) {
      inString = true;
      stringEscapes = false;
      stringStart = i + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > maxDepth)
        throw new JsonBodyError(
          'JSON_TOO_DEEP',
          'The request body is nested too deeply',
          `nesting deeper than ${maxDepth} levels`,
        );
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
    else if (c === COLON && lastString) {
      checkKey(buf, ...lastString);
      lastString = undefined;
    } else if (c > 0x20) lastString = undefined;
  }
}

function checkKey(buf: Buffer, start: number, end: number, escapes: boolean): void {
  const len = end - start;
  if (!escapes && len !== 9 && len !== 11) return; // "__proto__" and "prototype" have 9 bytes, "constructor" 11
  const raw = buf.toString('utf8', start, end);
  let key = raw;
  if (escapes) {
    try {
      key = JSON.parse(`"${raw}"`) as string;
    } catch {
      return; // the parser reports it
    }
  }
  if (PROTOTYPE_KEYS.has(key))
    throw new JsonBodyError(
      'FORBIDDEN_KEY',
      'The request body uses a forbidden key',
      `"${key}" is not allowed as a key`,
    );
}

const HEX4 = /^[0-9a-fA-F]{4}$/;
const hexAt = (buf: Buffer, i: number): number => {
  if (i + 4 > buf.length) return -1;
  const digits = buf.toString('latin1', i, i + 4);
  return HEX4.test(digits) ? Number.parseInt(digits, 16) : -1;
};

/** `i` is at the `u` of `\u`; returns the index of the escape's last byte. */
function checkUnicodeEscape(buf: Buffer, i: number): number {
  const code = hexAt(buf, i + 1);
  if (code < 0) return i; // malformed: the parser reports it
  const bad = (detail: string) =>
    new JsonBodyError('INVALID_JSON_STRING', 'The request body holds a string that cannot be stored', detail);
  if (code === 0) throw bad('a string contains \\u0000');
  if (code >= 0xdc00 && code <= 0xdfff) throw bad('a string contains an unpaired surrogate');
  if (code >= 0xd800 && code <= 0xdbff) {
    const follows = buf[i + 5] === BACKSLASH && buf[i + 6] === 0x75 ? hexAt(buf, i + 7) : -1;
    if (follows < 0xdc00 || follows > 0xdfff) throw bad('a string contains an unpaired surrogate');
    return i + 10;
  }
  return i + 4;
}

/** body-parser `verify` hook running {@link checkJsonBody}; non-UTF-8 bodies are scanned after transcoding. */
export function jsonBodyVerifier(
  maxDepth: number = DEFAULT_MAX_JSON_DEPTH,
): (req: IncomingMessage, res: unknown, buf: Buffer, encoding: string) => void {
  return (_req, _res, buf, encoding) => {
    const utf8 = !encoding || /^utf-?8$/i.test(encoding);
    checkJsonBody(utf8 ? buf : Buffer.from(buf.toString(encoding as BufferEncoding), 'utf8'), maxDepth);
  };
}

// eslint-disable-next-line no-control-regex
const STRIP = /[\u0000-\u001f\u007f]/g;
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text PostgreSQL can store in `text` and `jsonb` and a log reader can trust: unpaired surrogates become U+FFFD,
 * control characters (NUL included, line breaks too: an audit field is one line) become a space. Used by the
 * audit writers on every field of every event, so a poisoned value cannot fail the write of its batch (ADR 0008).
 */
export function storableText(s: string): string {
  return s.replace(LONE_SURROGATES, '\ufffd').replace(STRIP, ' ');
}

/** {@link storableText} applied to every string and key of a JSON-like value (depth-bounded: deeper parts drop). */
export function storableJson(value: unknown, depth = 8): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object')
    return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  if (depth <= 0) return null;
  if (Array.isArray(value)) return value.map((v) => storableJson(v, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = storableText(k);
    if (!PROTOTYPE_KEYS.has(key)) out[key] = storableJson(v, depth - 1);
  }
  return out;
}
