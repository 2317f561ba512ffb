import type { TSchema } from '@sinclair/typebox';
import { Problem, PROBLEM_CONTENT_TYPE } from './problem';

/** One operation to document. */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path: `/api/agents/:id` becomes `/api/agents/{id}`. */
  path: string;
  summary: string;
  tags?: string[];
  body?: TSchema;
  query?: TSchema;
  /** Status code to response; `schema` absent means no body. */
  responses: Record<string, { description: string; schema?: TSchema; contentType?: string }>;
  /** Security requirement names; empty array for an open operation. */
  security?: string[];
}

/** Input of {@link buildOpenApi}. */
export interface OpenApiInput {
  title: string;
  version: string;
  description?: string;
  servers?: string[];
  routes: RouteDoc[];
  securitySchemes?: Record<string, Record<string, unknown>>;
}

/** Strips TypeBox's symbol keys by a JSON round trip so the document is plain JSON. */
function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

/**
 * Assembles an OpenAPI 3.1 document from route descriptions whose schemas come from this package,
 * so the published contract and the validators cannot drift apart.
 */
export function buildOpenApi(input: OpenApiInput): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of input.routes) {
    const path = r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const params = [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (r.query) {
      const q = plain(r.query) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(q.properties ?? {})) {
        params.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema } as never);
      }
    }
    const responses: Record<string, unknown> = {};
    for (const [status, res] of Object.entries(r.responses)) {
      responses[status] = res.schema
        ? { description: res.description, content: { [res.contentType ?? 'application/json']: { schema: plain(res.schema) } } }
        : { description: res.description };
    }
    responses.default = {
      description: 'Problem details (RFC 9457)',
      content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
    };
    const op: Record<string, unknown> = { summary: r.summary, tags: r.tags, parameters: params, responses };
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: plain(r.body) } } };
    if (r.security) op.security = r.security.map((s) => ({ [s]: [] }));
    (paths[path] ??= {})[r.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: input.title, version: input.version, description: input.description },
    servers: input.servers?.map((url) => ({ url })),
    paths,
    components: { schemas: { Problem: plain(Problem) }, securitySchemes: input.securitySchemes ?? {} },
  };
}
