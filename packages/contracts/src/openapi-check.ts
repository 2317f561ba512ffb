import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { ajv, toIssues, type ValidationIssue } from './ajv';
import { responseSchemaPointer } from './openapi';

/**
 * The shared ajv's validator for one documented response of an OpenAPI document (as served, plain JSON). The
 * document is registered once under an id derived from its content, so its internal `#/components/schemas/...`
 * references resolve; the validator checks a real body against exactly what the document publishes.
 */
export function documentedResponseValidator(
  doc: Record<string, unknown>,
  method: string,
  expressPath: string,
  status: number | string,
  contentType = 'application/json',
): ValidateFunction {
  const id = `urn:care:openapi:${createHash('sha256').update(JSON.stringify(doc)).digest('hex')}`;
  if (!ajv.getSchema(id)) ajv.addSchema(doc, id);
  const pointer = responseSchemaPointer(method, expressPath, status, contentType);
  const fn = ajv.getSchema(`${id}${pointer}`);
  if (!fn) throw new Error(`The document has no schema at ${pointer}`);
  return fn;
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
