import type { RequestHandler } from 'express';
import { compile, toIssues, type TSchema } from '@care/contracts';
import { ValidationError } from './errors';

/** Schemas for the parts of a request to validate. */
export interface RequestSchemas {
  body?: TSchema;
  query?: TSchema;
  params?: TSchema;
}

/**
 * Middleware validating body, query and params against shared schemas (compiled once). Query strings are
 * coerced from text by the schema's types before validation; the validated values replace the raw ones
 * (`req.query` is read-only in Express 5, so the result goes to `res.locals.query`).
 */
export function validate(schemas: RequestSchemas): RequestHandler {
  const body = schemas.body && compile(schemas.body);
  const query = schemas.query && compile(schemas.query);
  const params = schemas.params && compile(schemas.params);
  return (req, res, next) => {
    const issues = [];
    if (body) {
      const value = req.body;
      // express.json() leaves the body undefined unless the request declared application/json.
      if (value === undefined) {
        const detail = 'a JSON body with Content-Type: application/json is required';
        return next(
          new ValidationError('A JSON body is required', [{ pointer: '/', detail }], 'BODY_REQUIRED'),
        );
      }
      if (!body(value)) issues.push(...toIssues(body.errors, ''));
    }
    if (query) {
      const q = coerceQuery(req.query as Record<string, unknown>, schemas.query!);
      if (!query(q)) issues.push(...toIssues(query.errors, '/query'));
      else res.locals.query = q;
    }
    if (params && !params(req.params)) issues.push(...toIssues(params.errors, '/params'));
    if (issues.length) return next(new ValidationError('The request is invalid', issues));
    next();
  };
}

/** Converts query-string text to the numbers and booleans the schema asks for; leaves the rest as is. */
function coerceQuery(raw: Record<string, unknown>, schema: TSchema): Record<string, unknown> {
  const props = (schema as { properties?: Record<string, { type?: string }> }).properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    const type = props[k]?.type;
    if (typeof v !== 'string') out[k] = v;
    else if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(v)) out[k] = Number(v);
    else if (type === 'boolean' && (v === 'true' || v === 'false')) out[k] = v === 'true';
    else out[k] = v;
  }
  return out;
}
