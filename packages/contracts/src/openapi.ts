import type { TSchema } from '@sinclair/typebox';
import { Problem, PROBLEM_CONTENT_TYPE } from './problem';

/** One documented response of an operation. */
export interface ResponseDoc {
  description: string;
  /** Body schema; absent means no body. */
  schema?: TSchema;
  /** Media type of the body; default `application/json`. */
  contentType?: string;
  /** Response headers worth documenting (name to description). */
  headers?: Record<string, string>;
}

/** One operation to document. */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path: `/api/agents/:id` becomes `/api/agents/{id}`. */
  path: string;
  summary: string;
  description?: string;
  /** Unique id; default derived from method and path. */
  operationId?: string;
  tags?: string[];
  body?: TSchema;
  /** Media type of the body; default `application/json`. */
  bodyContentType?: string;
  /** Whether a body is required (default true when `body` is set). */
  bodyRequired?: boolean;
  query?: TSchema;
  /** Request headers worth documenting, as an object schema (`required` marks the mandatory ones). */
  headers?: TSchema;
  /** Schema of the path parameters (an object schema); a parameter missing there is a plain string. */
  params?: TSchema;
  /** Status code to response. */
  responses: Record<string, ResponseDoc>;
  /** Security requirement names; empty array for an open operation; absent: the document's default. */
  security?: string[];
}

/** Input of {@link buildOpenApi}. */
export interface OpenApiInput {
  title: string;
  version: string;
  description?: string;
  /** Server URLs; default one relative server `/` (the document is served by the API it describes). */
  servers?: string[];
  routes: RouteDoc[];
  securitySchemes?: Record<string, Record<string, unknown>>;
  /** Security requirement names applying to every operation that does not set its own. */
  security?: string[];
  /** Tag descriptions. */
  tags?: Array<{ name: string; description: string }>;
}

/** Name of the components entry holding a hoisted schema. */
const COMPONENTS = '#/components/schemas/';

/** Strips TypeBox's symbol keys by a JSON round trip so the document is plain JSON. */
function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

/**
 * Moves every subschema carrying an `$id` (TypeBox's named and recursive schemas) into `components.schemas` and
 * points `$ref`s at it, so references resolve inside the document (a bare `$ref: "CategoryNode"` would be read
 * as a file by OpenAPI tools).
 */
function hoist(value: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => hoist(v, components));
  if (!value || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === '$id') continue;
    if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) out[k] = COMPONENTS + v;
    else out[k] = hoist(v, components);
  }
  if (typeof obj.$id === 'string') {
    const existing = components[obj.$id];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(out)) {
      throw new Error(`Two different schemas share the $id ${obj.$id}`);
    }
    components[obj.$id] = out;
    return { $ref: COMPONENTS + obj.$id };
  }
  return out;
}

function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/^[:{]|}$/g, ''))
    .flatMap((s) => s.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return [method, ...words].map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
}

/**
 * Assembles an OpenAPI 3.1 document from route descriptions whose schemas come from this package,
 * so the published contract and the validators cannot drift apart. Every operation gets the
 * problem+json `default` response.
 */
export function buildOpenApi(input: OpenApiInput): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  const schema = (s: TSchema) => hoist(plain(s), schemas);
  schema(Problem);
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const r of input.routes) {
    const path = r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const declared = (r.params ? plain(r.params) : {}) as { properties?: Record<string, TSchema> };
    const params: Array<Record<string, unknown>> = [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: declared.properties?.[m[1]] ? schema(declared.properties[m[1]]) : { type: 'string' },
    }));
    if (r.query) {
      const q = plain(r.query) as { properties?: Record<string, TSchema>; required?: string[] };
      for (const [name, s] of Object.entries(q.properties ?? {})) {
        const { description, ...rest } = s as TSchema & { description?: string };
        params.push({
          name,
          in: 'query',
          required: (q.required ?? []).includes(name),
          ...(description ? { description } : {}),
          schema: schema(rest as TSchema),
        });
      }
    }
    if (r.headers) {
      const hd = plain(r.headers) as { properties?: Record<string, TSchema>; required?: string[] };
      for (const [name, s] of Object.entries(hd.properties ?? {})) {
        const { description, ...rest } = s as TSchema & { description?: string };
        params.push({
          name,
          in: 'header',
          required: (hd.required ?? []).includes(name),
          ...(description ? { description } : {}),
          schema: schema(rest as TSchema),
        });
      }
    }
    const responses: Record<string, unknown> = {};
    for (const [status, res] of Object.entries(r.responses)) {
      const out: Record<string, unknown> = { description: res.description };
      if (res.headers) {
        out.headers = Object.fromEntries(
          Object.entries(res.headers).map(([name, description]) => [
            name,
            { description, schema: { type: 'string' } },
          ]),
        );
      }
      if (res.schema)
        out.content = { [res.contentType ?? 'application/json']: { schema: schema(res.schema) } };
      responses[status] = out;
    }
    // Every operation can answer a client error (the input front door alone rejects malformed request targets).
    responses['4XX'] ??= {
      description:
        'Client error: invalid input, missing or invalid credentials, missing scope, not found or conflict',
      content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: `${COMPONENTS}Problem` } } },
    };
    responses.default = {
      description: 'Any other error (problem details, RFC 9457)',
      content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: `${COMPONENTS}Problem` } } },
    };
    const operationId = r.operationId ?? operationIdOf(r.method, path);
    if (ids.has(operationId)) throw new Error(`Duplicate operationId ${operationId}`);
    ids.add(operationId);
    const op: Record<string, unknown> = { operationId, summary: r.summary };
    if (r.description) op.description = r.description;
    if (r.tags) op.tags = r.tags;
    if (params.length) op.parameters = params;
    if (r.body) {
      op.requestBody = {
        required: r.bodyRequired ?? true,
        content: { [r.bodyContentType ?? 'application/json']: { schema: schema(r.body) } },
      };
    }
    op.responses = responses;
    if (r.security) op.security = r.security.map((s) => ({ [s]: [] }));
    const item = (paths[path] ??= {});
    if (item[r.method]) throw new Error(`${r.method.toUpperCase()} ${path} is documented twice`);
    item[r.method] = op;
  }
  const doc: Record<string, unknown> = {
    openapi: '3.1.0',
    info: {
      title: input.title,
      version: input.version,
      ...(input.description ? { description: input.description } : {}),
    },
    servers: (input.servers ?? ['/']).map((url) => ({ url })),
  };
  if (input.security) doc.security = input.security.map((s) => ({ [s]: [] }));
  if (input.tags) doc.tags = input.tags;
  doc.paths = paths;
  doc.components = { schemas, securitySchemes: input.securitySchemes ?? {} };
  return doc;
}

/** JSON Pointer of the schema of one documented response, for validating a real response against the document. */
export function responseSchemaPointer(
  method: string,
  expressPath: string,
  status: number | string,
  contentType = 'application/json',
): string {
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  const path = expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return `#/paths/${esc(path)}/${method.toLowerCase()}/responses/${status}/content/${esc(contentType)}/schema`;
}
