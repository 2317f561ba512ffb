import type { RequestHandler } from 'express';

/** Result of {@link canonicalizePath}: the path used for access decisions, or why it was refused. */
type CanonicalPath = { ok: true; path: string } | { ok: false; reason: string };

// Escapes that could change how a path splits into segments, or be decoded twice downstream.
const FORBIDDEN_ESCAPES = /%(2f|5c|25|00)/i;
// Matching control characters is the point here.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Turns a raw request path into the form the access rules are matched against, refusing the shapes that let
 * a request check under one mapping and route to another (in the spirit of Spring's StrictHttpFirewall):
 * encoded slashes or backslashes, double encoding, `;`, dot segments (raw or encoded), empty inner segments,
 * control characters and broken escapes. What remains is decoded, lower-cased (Express routes
 * case-insensitively) and stripped of trailing slashes (Express routes `/users/` and `/users//` as `/users`).
 */
export function canonicalizePath(rawPath: string): CanonicalPath {
  if (!rawPath.startsWith('/')) return { ok: false, reason: 'path must start with /' };
  if (rawPath.includes('\\') || rawPath.includes(';')) return { ok: false, reason: 'backslash or ; in path' };
  if (FORBIDDEN_ESCAPES.test(rawPath))
    return { ok: false, reason: 'encoded slash, backslash, percent or NUL' };
  const trimmed = rawPath.replace(/\/+$/, '');
  if (trimmed === '') return { ok: true, path: '/' };
  const segments = trimmed.slice(1).split('/');
  const decoded: string[] = [];
  for (const segment of segments) {
    if (segment === '') return { ok: false, reason: 'empty path segment' };
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return { ok: false, reason: 'malformed percent-encoding' };
    }
    if (value === '.' || value === '..') return { ok: false, reason: 'dot segment' };
    if (CONTROL.test(value)) return { ok: false, reason: 'control character' };
    decoded.push(value.toLowerCase());
  }
  return { ok: true, path: `/${decoded.join('/')}` };
}

/**
 * Folds a run of trailing slashes into one before routing. The access rules already treat `/users//` like `/users`
 * (ADR 0102), and Express routes `/users/` like `/users`; routes are declared with their full paths, so without this
 * `/api/v1/users//` would no longer reach `/api/v1/users` as it did under a mounted prefix. The query is kept and
 * `req.originalUrl` (what the chat proxy forwards) is untouched.
 */
export const foldTrailingSlashes: RequestHandler = (req, _res, next) => {
  const q = req.url.indexOf('?');
  const path = q < 0 ? req.url : req.url.slice(0, q);
  if (/\/\/$/.test(path)) req.url = `${path.replace(/\/+$/, '/')}${q < 0 ? '' : req.url.slice(q)}`;
  next();
};
