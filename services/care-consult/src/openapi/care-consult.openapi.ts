import { Router } from 'express';
import {
  AgentDetail,
  AgentList,
  AgentsQuery,
  AttachmentList,
  AttachmentUpload,
  AttachmentView,
  AuditPage,
  buildOpenApi,
  ChatRequest,
  ConsoleConfig,
  HealthResponse,
  JsonRpcMessage,
  MCP_POST_RESPONSES,
  mcpNotOfferedRouteDocs,
  ModelsResponse,
  RelayTicketIssued,
  RelayTicketRequest,
  SkillDetail,
  SkillList,
  SseStream,
  TaxonomyTree,
  ThreadHistory,
  ThreadList,
  Type,
  type RouteDoc,
  type TSchema,
} from '@care/contracts';
import { LIVENESS_PATH, PROMETHEUS_PATH } from '@care/service-kit';
import type { AppDeps } from '../app';
import { servesPrometheus } from '../metrics/care-consult.metrics';
import { AuditListQuery } from '../audit/audit.schemas';
import { CONSOLE_VENDOR_FILES } from '../console/console.routes';
import { ThreadHistoryQuery, ThreadListQuery } from '../threads/threads.schemas';

/** Path of the served document. */
const OPENAPI_PATH = '/openapi.json';

/** What varies the document: configuration that changes what is mounted. */
export interface CareConsultDocOptions {
  version: string;
  /** Whether `/actuator/prometheus` is served on this port (dev without a management port, metrics on). */
  prometheus: boolean;
}

const ok = (description: string, schema: TSchema) => ({ '200': { description, schema } });
const OPEN: string[] = [];
const str = (description: string) => Type.Optional(Type.String({ description }));

/** The operations care-consult serves, with the schemas its routes validate with. */
function careConsultRoutes(o: CareConsultDocOptions): RouteDoc[] {
  const routes: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/health',
      tags: ['health'],
      summary: 'Health, counts, local inference server, memory backend (503 on error or while draining)',
      responses: {
        ...ok('ok or degraded', HealthResponse),
        '503': { description: 'error, or shutting down', schema: HealthResponse },
      },
      security: OPEN,
    },
    {
      method: 'post',
      path: '/api/chat',
      tags: ['chat'],
      summary: 'Streaming consultation (SSE)',
      description:
        'Frames: one `message`, then `token`s, optional `tool_start`/`tool_end` pairs, `suggestions`, a possible `refusal` or `error`, and `done` with data `[DONE]`. Errors found before the stream opens are problem+json.',
      body: ChatRequest,
      responses: {
        '200': {
          description: 'SSE stream',
          schema: SseStream,
          contentType: 'text/event-stream',
          headers: { 'X-Thread-Id': 'thread of this turn (new or the one named)' },
        },
      },
    },
    {
      method: 'get',
      path: '/api/chat/threads',
      tags: ['chat'],
      summary: "The caller's own threads, most recently active first",
      query: ThreadListQuery,
      responses: ok('One page of threads', ThreadList),
    },
    {
      method: 'get',
      path: '/api/chat/threads/:thread_id',
      tags: ['chat'],
      summary: "The caller's thread checkpoint history, newest first",
      query: ThreadHistoryQuery,
      responses: ok('One page of the history', ThreadHistory),
    },
    {
      method: 'get',
      path: '/api/agents',
      tags: ['catalog'],
      summary: 'List indexed agents with optional filters and full-text search',
      query: AgentsQuery,
      responses: ok('Agents', AgentList),
    },
    {
      method: 'get',
      path: '/api/agents/categories',
      tags: ['catalog'],
      summary: 'Taxonomy tree with agent counts',
      responses: ok('Taxonomy tree', TaxonomyTree),
    },
    {
      method: 'get',
      path: '/api/agents/:agentId',
      tags: ['catalog'],
      summary: 'Agent manifest, declared skills, persona',
      responses: ok('Agent', AgentDetail),
    },
    {
      method: 'get',
      path: '/api/skills',
      tags: ['catalog'],
      summary: 'List skill packages',
      responses: ok('Skills', SkillList),
    },
    {
      method: 'get',
      path: '/api/skills/:skillId',
      tags: ['catalog'],
      summary: 'Skill manifest and reference document listing',
      responses: ok('Skill', SkillDetail),
    },
    {
      method: 'get',
      path: '/api/models',
      tags: ['models'],
      summary: 'Available LLM models and configured providers',
      responses: ok('Models', ModelsResponse),
    },
    {
      method: 'get',
      path: '/api/audit',
      tags: ['audit'],
      summary: "Audit events without bodies (the caller's own; the whole tenant for tenant admins)",
      query: AuditListQuery,
      responses: ok('A page of events', AuditPage),
    },
    {
      method: 'post',
      path: '/api/attachments',
      tags: ['attachments'],
      summary: "Upload a document to the caller's sandbox",
      body: AttachmentUpload,
      bodyContentType: 'multipart/form-data',
      responses: {
        '201': {
          description: 'Stored attachment',
          schema: AttachmentView,
          headers: { Location: 'URL of the attachment' },
        },
      },
    },
    {
      method: 'get',
      path: '/api/attachments',
      tags: ['attachments'],
      summary: "List the caller's attachments",
      responses: ok('Attachments', AttachmentList),
    },
    {
      method: 'get',
      path: '/api/attachments/:id',
      tags: ['attachments'],
      summary: "One attachment's metadata",
      responses: ok('Attachment', AttachmentView),
    },
    {
      method: 'get',
      path: '/api/attachments/:id/content',
      tags: ['attachments'],
      summary: 'Download an attachment (always as a download, never inline)',
      responses: {
        '200': {
          description: 'The stored bytes, with their media type',
          schema: Type.String({ contentMediaType: 'application/octet-stream' }),
          contentType: 'application/octet-stream',
          headers: { 'Content-Disposition': 'attachment with the file name' },
        },
      },
    },
    {
      method: 'delete',
      path: '/api/attachments/:id',
      tags: ['attachments'],
      summary: 'Delete an attachment',
      responses: { '204': { description: 'Deleted' } },
    },
    {
      method: 'post',
      path: '/api/relay/tickets',
      tags: ['relay'],
      summary: 'Issue a signed single-use relay ticket for an OAuth callback',
      body: RelayTicketRequest,
      responses: { '201': { description: 'Ticket', schema: RelayTicketIssued } },
    },
    {
      method: 'get',
      path: '/api/relay/callback',
      tags: ['relay'],
      summary: 'OAuth provider callback: redirects to the ticket callback with code and state',
      description:
        'Fails closed: a ticket that fails a check gets a 400 problem and no Location. Every response carries Cache-Control: no-store.',
      query: Type.Object({
        code: str('authorization code'),
        state: str('the relay ticket'),
        iss: str('issuer (RFC 9207)'),
        error: str('provider error code'),
        error_description: str('provider error text'),
      }),
      responses: {
        '302': {
          description: 'Redirect to the callback URL of the ticket',
          headers: { Location: 'callback URL with code, state (and iss) or the provider error' },
        },
      },
      security: OPEN,
    },
    {
      method: 'post',
      path: '/mcp',
      tags: ['mcp'],
      summary: 'Model Context Protocol (Streamable HTTP, stateless): catalog tools and consult (docs/mcp.md)',
      description: 'Bearer token as for /api. Accept must include application/json and text/event-stream.',
      body: JsonRpcMessage,
      responses: MCP_POST_RESPONSES,
    },
    ...mcpNotOfferedRouteDocs('mcp'),
    {
      method: 'get',
      path: LIVENESS_PATH,
      tags: ['probes'],
      summary: 'Liveness (process only)',
      responses: ok('Alive', Type.Object({ status: Type.String() })),
      security: OPEN,
    },
    {
      method: 'get',
      path: '/console',
      tags: ['console'],
      summary: 'The consultation console (static HTML, scripts and styles below /console/)',
      responses: { '200': { description: 'HTML page', schema: Type.String(), contentType: 'text/html' } },
      security: OPEN,
    },
    {
      method: 'get',
      path: '/console/config.json',
      tags: ['console'],
      summary: 'Console settings: sign-in URL and API base',
      responses: ok('Console settings', ConsoleConfig),
      security: OPEN,
    },
    {
      method: 'get',
      path: '/console/vendor/:file',
      tags: ['console'],
      summary:
        'Third-party scripts of the console (markdown rendering and sanitising), served from the installed packages',
      params: Type.Object({
        file: Type.Union(Object.keys(CONSOLE_VENDOR_FILES).map((f) => Type.Literal(f))),
      }),
      responses: {
        '200': { description: 'Script', schema: Type.String(), contentType: 'application/javascript' },
      },
      security: OPEN,
    },
    {
      method: 'get',
      path: '/favicon.ico',
      tags: ['console'],
      summary: 'The console icon (SVG)',
      responses: { '200': { description: 'Icon', schema: Type.String(), contentType: 'image/svg+xml' } },
      security: OPEN,
    },
    {
      method: 'get',
      path: OPENAPI_PATH,
      tags: ['meta'],
      summary: 'This OpenAPI document',
      responses: ok('OpenAPI 3.1 document', Type.Object({}, { additionalProperties: true })),
      security: OPEN,
    },
  ];
  if (o.prometheus) {
    routes.push({
      method: 'get',
      path: PROMETHEUS_PATH,
      tags: ['probes'],
      summary: 'Prometheus scrape (dev profile without a management port)',
      responses: { '200': { description: 'Metrics', schema: Type.String(), contentType: 'text/plain' } },
      security: OPEN,
    });
  }
  return routes;
}

/** The OpenAPI 3.1 document of care-consult. */
function careConsultOpenApi(o: CareConsultDocOptions): Record<string, unknown> {
  return buildOpenApi({
    title: 'care-consult',
    version: o.version,
    description:
      'Multi-agent consultation engine: SSE chat, agent and skill catalog, audit, models, attachments and the stateless OAuth callback relay. Every /api route needs a platform bearer token except health and the relay callback.',
    security: ['bearerAuth'],
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    tags: [
      { name: 'health', description: 'Service health' },
      { name: 'chat', description: 'Streaming consultation and thread history' },
      { name: 'catalog', description: 'Agents, taxonomy and skills' },
      { name: 'models', description: 'LLM providers and models' },
      { name: 'audit', description: 'Audit events' },
      { name: 'attachments', description: 'Per-user attachment sandbox' },
      { name: 'relay', description: 'Stateless OAuth 2.0 PKCE callback relay' },
      { name: 'console', description: 'Browser console' },
      { name: 'mcp', description: 'Model Context Protocol server' },
      { name: 'probes', description: 'Probes and scraping' },
      { name: 'meta', description: 'API description' },
    ],
    routes: careConsultRoutes(o),
  });
}

/** `GET /openapi.json`: the document, built once. */
export function openApiRoutes(deps: Pick<AppDeps, 'version' | 'metrics' | 'config'>): Router {
  const body = JSON.stringify(
    careConsultOpenApi({ version: deps.version, prometheus: servesPrometheus(deps) }),
  );
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'no-cache').send(body);
  });
  return router;
}
