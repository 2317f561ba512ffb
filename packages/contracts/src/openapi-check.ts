import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { ajv, toIssues, type ValidationIssue } from './ajv';
import { responseSchemaPointer } from './openapi';

/**
 * The shared ajv's validator for one documented response (exact status, else its class such as `4XX`, else
 * `default`, as OpenAPI resolves them) of an OpenAPI document (as served, plain JSON). The
 * document is registered once under an id derived from its content, so its internal `#/components/schemas/...`
 * references resolve; the validator checks a real body against exactly what the document publishes.
 */
function documentedResponseValidator(
  doc: Record<string, unknown>,
  method: string,
  expressPath: string,
  status: number | string,
  contentType = 'application/json',
): ValidateFunction {
  const id = `urn:care:openapi:${createHash('sha256').update(JSON.stringify(doc)).digest('hex')}`;
  if (!ajv.getSchema(id)) ajv.addSchema(doc, id);
  // OpenAPI's precedence: the exact status, then its class (`4XX`), then `default`.
  const candidates = [String(status), `${String(status)[0]}XX`, 'default'];
  for (const s of candidates) {
    const fn = ajv.getSchema(`${id}${responseSchemaPointer(method, expressPath, s, contentType)}`);
    if (fn) return fn;
    if (hasResponse(doc, method, expressPath, s)) break;
  }
  throw new Error(
    `The document has no ${contentType} schema for ${method.toUpperCase()} ${expressPath} ${status}`,
  );
}

function hasResponse(
  doc: Record<string, unknown>,
  method: string,
  expressPath: string,
  status: string,
): boolean {
  const path = expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const paths = doc.paths as
    Record<string, Record<string, { responses?: Record<string, unknown> }>> | undefined;
  return paths?.[path]?.[method.toLowerCase()]?.responses?.[status] !== undefined;
}

/** Validates a real response body against the document's schema for it; returns the issues (empty: valid). */
export function checkDocumentedResponse(
  doc: Record<string, unknown>,
  method: string,
  expressPath: string,
  status: number | string,
  body: unknown,
  contentType?: string,
): ValidationIssue[] {
  const fn = documentedResponseValidator(doc, method, expressPath, status, contentType);
  return fn(body) ? [] : toIssues(fn.errors);
}

/** `METHOD /path` of every operation a document marks open (`security: []`), sorted. */
export function openOperations(doc: {
  paths?: Record<string, Record<string, { security?: unknown[] }>>;
}): string[] {
  return Object.entries(doc.paths ?? {})
    .flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => Array.isArray(op.security) && op.security.length === 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}
