import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { TSchema, Static } from '@sinclair/typebox';

/**
 * The one ajv instance of the platform. Every schema is compiled here once and cached by identity, so a
 * route that validates on every request pays for compilation only at start-up.
 */
export const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true });
addFormats(ajv);

const cache = new WeakMap<object, ValidateFunction>();

/** Compiles (once) and returns the validator of a TypeBox or plain JSON schema. */
export function compile<S extends TSchema>(schema: S): ValidateFunction<Static<S>> {
  let fn = cache.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    cache.set(schema, fn);
  }
  return fn as ValidateFunction<Static<S>>;
}

/** One validation problem, located by a JSON Pointer into the validated value. */
export interface ValidationIssue {
  pointer: string;
  detail: string;
}

/** Turns ajv errors into `{pointer, detail}` entries for a problem+json `errors` list. */
export function toIssues(errors: ErrorObject[] | null | undefined, prefix = ''): ValidationIssue[] {
  return (errors ?? []).map((e) => {
    let pointer = prefix + e.instancePath;
    let detail = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') {
      pointer += `/${escapePointer(String((e.params as { additionalProperty: string }).additionalProperty))}`;
      detail = 'is not an allowed field';
    } else if (e.keyword === 'required') {
      pointer += `/${escapePointer(String((e.params as { missingProperty: string }).missingProperty))}`;
      detail = 'is required';
    }
    return { pointer: pointer || '/', detail };
  });
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Validates `value` against `schema`; returns the typed value or the list of issues. */
export function check<S extends TSchema>(
  schema: S,
  value: unknown,
): { ok: true; value: Static<S> } | { ok: false; issues: ValidationIssue[] } {
  const fn = compile(schema);
  if (fn(value)) return { ok: true, value: value as Static<S> };
  return { ok: false, issues: toIssues(fn.errors) };
}
