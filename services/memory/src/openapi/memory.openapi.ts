import type { RequestHandler } from 'express';
import {
  buildOpenApi,
  DocumentIngest,
  DocumentIngestResult,
  IntrospectRequest,
  JsonRpcMessage,
  MCP_POST_RESPONSES,
  mcpNotOfferedRouteDocs,
  IntrospectResponse,
  MemoryView,
  PartitionStatus,
  RecallRequest,
  RecallResponse,
  ReflectReport,
  ReinforceRequest,
  ReminderList,
  ReminderRequest,
  ReminderView,
  RememberBatchRequest,
  RememberBatchResult,
  RememberRequest,
  ScratchpadList,
  ScratchpadRequest,
  SuppressRequest,
  SystemHealth,
  SystemMetrics,
  SystemStatus,
  Type,
  WhyNotRequest,
  WhyNotResponse,
  type RouteDoc,
  type TSchema,
} from '@care/contracts';
import { LIVENESS_PATH, PROMETHEUS_PATH } from '@care/service-kit';
import { NoBody } from '../http/no-body';
import { IdParams } from '../memories/memories.schemas';

/** Path of the served document. */
export const OPENAPI_PATH = '/openapi.json';

/** What varies the document: configuration that changes what is mounted or open. */
export interface MemoryDocOptions {
  version: string;
  /** Whether `/actuator/prometheus` is served on this port (dev without a management port, metrics on). */
  prometheus: boolean;
  /** GET paths answered without credentials (`API_KEY_EXEMPT_PATHS`). */
  exemptPaths: string[];
}

const ok = (description: string, schema: TSchema) => ({ '200': { description, schema } });
const Partition = Type.Object({
  'X-Tenant-Id': Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$',
      description: 'partition; default `default`; with a bearer token it must equal the token tenant',
    }),
  ),
});
const mem = (r: Omit<RouteDoc, 'tags' | 'headers'>): RouteDoc => ({
  ...r,
  tags: ['memory'],
  headers: Partition,
});
const byId = (r: Omit<RouteDoc, 'tags' | 'headers' | 'params'>): RouteDoc => mem({ ...r, params: IdParams });
const MODE_NOTE = 'Answers 404 MODE_DISABLED when OPERATING_MODE is RAG.';

/** The operations the memory service serves, with the schemas its routes validate with. */
function memoryRoutes(o: MemoryDocOptions): RouteDoc[] {
  const routes: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/system/status',
      tags: ['system'],
      summary: 'Version, uptime, port and local LLM settings',
      responses: ok('Status', SystemStatus),
    },
    {
      method: 'get',
      path: '/api/v1/system/health',
      tags: ['system'],
      summary: 'Health of memory, LLM and tools (503 when the database is down or the service drains)',
      responses: {
        ...ok('Healthy', SystemHealth),
        '503': { description: 'Unhealthy', schema: SystemHealth },
      },
    },
    {
      method: 'get',
      path: '/api/v1/system/metrics',
      tags: ['system'],
      summary: 'Runtime and core metrics',
      responses: ok('Metrics', SystemMetrics),
    },
    mem({
      method: 'post',
      path: '/api/v1/memory',
      summary: 'Ingest (or replace) a document with its pre-computed vector (every mode)',
      body: DocumentIngest,
      responses: ok('Stored document', DocumentIngestResult),
    }),
    mem({
      method: 'get',
      path: '/api/v1/memory/status',
      summary: 'Tier counts, partition information, persistence status',
      description: MODE_NOTE,
      responses: ok('Partition status', PartitionStatus),
    }),
    mem({
      method: 'post',
      path: '/api/v1/memory/remember',
      summary: 'Store a cognitive memory',
      description: MODE_NOTE,
      body: RememberRequest,
      responses: ok('Stored memory', MemoryView),
    }),
    mem({
      method: 'post',
      path: '/api/v1/memory/remember/batch',
      summary: 'Store up to 64 memories with one model call, all or none (extension, ADR 0109)',
      description: `${MODE_NOTE} An id that already holds the same text is \`unchanged\` (a retried batch); an id holding another text fails the batch with 409.`,
      body: RememberBatchRequest,
      responses: ok('Outcome per item', RememberBatchResult),
    }),
    mem({
      method: 'post',
      path: '/api/v1/memory/recall',
      summary: 'Recall with fused scoring across the memory tiers',
      description: MODE_NOTE,
      body: RecallRequest,
      responses: ok('Top results with their signals', RecallResponse),
    }),
    mem({
      method: 'post',
      path: '/api/v1/memory/why-not',
      summary: 'Explain why a memory was (not) recalled',
      description: MODE_NOTE,
      body: WhyNotRequest,
      responses: ok('Explanation', WhyNotResponse),
    }),
    mem({
      method: 'post',
      path: '/api/v1/memory/introspect',
      summary: 'How well the partition knows a topic',
      description: MODE_NOTE,
      body: IntrospectRequest,
      responses: ok('Knowledge report', IntrospectResponse),
    }),
    mem({
      method: 'post',
      path: '/api/v1/memory/reminder',
      summary: 'Schedule a time-triggered reminder',
      description: MODE_NOTE,
      body: ReminderRequest,
      responses: ok('Scheduled reminder', ReminderView),
    }),
    mem({
      method: 'get',
      path: '/api/v1/memory/reminders',
      summary: "The partition's reminders",
      description: MODE_NOTE,
      responses: ok('Reminders', ReminderList),
    }),
    mem({
      method: 'post',
      path: '/api/v1/memory/scratchpad',
      summary: 'Quick write to the working-memory scratchpad',
      description: MODE_NOTE,
      body: ScratchpadRequest,
      responses: ok('Scratchpad entry', MemoryView),
    }),
    mem({
      method: 'get',
      path: '/api/v1/memory/scratchpad',
      summary: 'The live scratchpad entries',
      description: MODE_NOTE,
      responses: ok('Scratchpad', ScratchpadList),
    }),
    mem({
      method: 'post',
      path: '/api/v1/memory/reflect',
      summary: 'Run a sleep consolidation cycle now',
      description: `${MODE_NOTE} The body is absent or an empty object.`,
      body: NoBody,
      bodyRequired: false,
      responses: ok('Consolidation report', ReflectReport),
    }),
    byId({
      method: 'get',
      path: '/api/v1/memory/:id',
      summary: 'One memory in any state, with its provenance links',
      description: MODE_NOTE,
      responses: ok('Memory', MemoryView),
    }),
    byId({
      method: 'delete',
      path: '/api/v1/memory/:id',
      summary: 'Tombstone (forget) a memory',
      description: MODE_NOTE,
      responses: ok('Forgotten memory', MemoryView),
    }),
    byId({
      method: 'post',
      path: '/api/v1/memory/:id/reinforce',
      summary: 'Report a positive or negative outcome',
      description: MODE_NOTE,
      body: ReinforceRequest,
      responses: ok('Reinforced memory', MemoryView),
    }),
    byId({
      method: 'post',
      path: '/api/v1/memory/:id/suppress',
      summary: 'Exclude from (or re-include in) recall',
      description: MODE_NOTE,
      body: SuppressRequest,
      responses: ok('Memory', MemoryView),
    }),
    byId({
      method: 'post',
      path: '/api/v1/memory/:id/resolve',
      summary: 'Mark resolved',
      description: `${MODE_NOTE} The body is absent or an empty object.`,
      body: NoBody,
      bodyRequired: false,
      responses: ok('Resolved memory', MemoryView),
    }),
    mem({
      method: 'post',
      path: '/mcp',
      summary:
        'Model Context Protocol (Streamable HTTP, stateless): the memory operations as tools, memories as memory://{id} resources (docs/mcp.md)',
      description:
        'Same credentials and partition rules as /api/v1/memory. Accept must include application/json and text/event-stream.',
      body: JsonRpcMessage,
      responses: MCP_POST_RESPONSES,
    }),
    ...mcpNotOfferedRouteDocs('memory'),
    {
      method: 'get',
      path: LIVENESS_PATH,
      tags: ['probes'],
      summary: 'Liveness (process only)',
      responses: ok('Alive', Type.Object({ status: Type.String() })),
      security: [],
    },
    {
      method: 'get',
      path: OPENAPI_PATH,
      tags: ['meta'],
      summary: 'This OpenAPI document',
      responses: ok('OpenAPI 3.1 document', Type.Object({}, { additionalProperties: true })),
      security: [],
    },
  ];
  if (o.prometheus) {
    routes.push({
      method: 'get',
      path: PROMETHEUS_PATH,
      tags: ['probes'],
      summary: 'Prometheus scrape (dev profile without a management port)',
      responses: { '200': { description: 'Metrics', schema: Type.String(), contentType: 'text/plain' } },
    });
  }
  const exempt = new Set(o.exemptPaths);
  return routes.map((r) => (r.method === 'get' && exempt.has(r.path) ? { ...r, security: [] } : r));
}

/** The OpenAPI 3.1 document of the memory service. */
function memoryOpenApi(o: MemoryDocOptions): Record<string, unknown> {
  return buildOpenApi({
    title: 'memory',
    version: o.version,
    description:
      'Cognitive memory for agents: system diagnostics, document ingestion and memory operations. A caller presents a platform bearer token (its tenant is the partition) or the shared X-API-Key; with neither configured (dev only) every request passes.',
    security: ['apiKey', 'bearerAuth'],
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    },
    tags: [
      { name: 'system', description: 'Status, health, metrics' },
      { name: 'memory', description: 'Documents and memory operations, per partition' },
      { name: 'probes', description: 'Probes and scraping' },
      { name: 'meta', description: 'API description' },
    ],
    routes: memoryRoutes(o),
  });
}

/** `GET /openapi.json`: the document, built once. */
export function openApiHandler(o: MemoryDocOptions): RequestHandler {
  const body = JSON.stringify(memoryOpenApi(o));
  return (_req, res) => {
    res.type('application/json').set('Cache-Control', 'no-cache').send(body);
  };
}
