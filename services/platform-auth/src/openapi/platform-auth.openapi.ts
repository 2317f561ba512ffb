import {
  ActuatorEnv,
  ActuatorEnvProperty,
  ActuatorHealth,
  ActuatorInfo,
  ActuatorLinks,
  ActuatorMetric,
  ActuatorMetricNames,
  ActuatorStatus,
  AuthEventView,
  buildOpenApi,
  CallerView,
  ChatRequest,
  ItemList,
  KbDocumentView,
  KbSearchResult,
  LoginRequest,
  LoginResponse,
  RefreshRequest,
  SseStream,
  TenantConfigView,
  TenantView,
  ThreadHistory,
  Type,
  UserView,
  UuidParam,
  WorkflowView,
  type RouteDoc,
  type TSchema,
} from '@care/contracts';
import { CreateDocument, ListDocumentsQuery, SearchQuery } from '../kb/kb.schemas';
import { ConfigPatch } from '../tenant-config/tenant-config.schemas';
import {
  AuditQuery,
  CreateTenant,
  IdParam,
  ListQuery as TenantListQuery,
  UpdateTenant,
} from '../tenants/tenants.schemas';
import { CreateUserRequest, UpdateUserRequest, UserQuery, UsersQuery } from '../users/users.schemas';
import {
  CreateWorkflow,
  ListQuery as WorkflowListQuery,
  ReplaceWorkflow,
} from '../workflow/workflow.schemas';

/** What varies the document: which actuator endpoints the main port serves (ADR 0005). */
export interface PlatformAuthDocOptions {
  version: string;
  /** `admin`: metrics, prometheus and env with a platform:admin token; `off`: not on this port. */
  sensitiveActuator: 'admin' | 'off';
}

const OPEN: string[] = [];
const ok = (description: string, schema?: TSchema) => ({
  '200': { description, ...(schema ? { schema } : {}) },
});
const created = (description: string, schema: TSchema) => ({
  '201': { description, schema, headers: { Location: 'URL of the created resource' } },
});
const noContent = (description: string) => ({ '204': { description } });
const JsonObject = Type.Object({}, { additionalProperties: true });
const PrometheusText = Type.String({ description: 'Prometheus text exposition format' });

/** The operations platform-auth serves, with the schemas its routes validate with. */
function platformAuthRoutes(o: PlatformAuthDocOptions): RouteDoc[] {
  const auth: RouteDoc[] = [
    {
      method: 'post',
      path: '/api/v1/auth/login',
      tags: ['auth'],
      summary: 'Log in with email and password (builtin mode)',
      body: LoginRequest,
      responses: ok('Token pair', LoginResponse),
      security: OPEN,
    },
    {
      method: 'post',
      path: '/api/v1/auth/refresh',
      tags: ['auth'],
      summary: 'Rotate a refresh token for a new token pair (builtin mode)',
      body: RefreshRequest,
      responses: ok('Token pair', LoginResponse),
      security: OPEN,
    },
    {
      method: 'post',
      path: '/api/v1/auth/logout',
      tags: ['auth'],
      summary: 'Revoke a refresh token family (builtin mode)',
      body: RefreshRequest,
      responses: noContent('Logged out'),
      security: OPEN,
    },
    {
      method: 'get',
      path: '/api/v1/auth/me',
      tags: ['auth'],
      summary: 'The verified caller',
      responses: ok('Caller', CallerView),
    },
  ];
  const users: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/users',
      tags: ['users'],
      summary: "List the tenant's users (admin:users)",
      query: UsersQuery,
      responses: ok('Users', ItemList(UserView)),
    },
    {
      method: 'post',
      path: '/api/v1/users',
      tags: ['users'],
      summary: 'Create a user (admin:users)',
      body: CreateUserRequest,
      responses: created('Created user', UserView),
    },
    {
      method: 'get',
      path: '/api/v1/users/:id',
      tags: ['users'],
      summary: 'One user (admin:users)',
      params: UuidParam,
      query: UserQuery,
      responses: ok('User', UserView),
    },
    {
      method: 'patch',
      path: '/api/v1/users/:id',
      tags: ['users'],
      summary: "Change a user's password or roles (admin:users)",
      params: UuidParam,
      query: UserQuery,
      body: UpdateUserRequest,
      responses: ok('Updated user', UserView),
    },
    {
      method: 'delete',
      path: '/api/v1/users/:id',
      tags: ['users'],
      summary: 'Delete a user (admin:users)',
      params: UuidParam,
      query: UserQuery,
      responses: noContent('Deleted'),
    },
  ];
  const tenants: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/tenants',
      tags: ['tenants'],
      summary: 'List tenants (platform:admin)',
      query: TenantListQuery,
      responses: ok('Tenants', ItemList(TenantView)),
    },
    {
      method: 'post',
      path: '/api/v1/tenants',
      tags: ['tenants'],
      summary: 'Create a tenant (platform:admin)',
      body: CreateTenant,
      responses: created('Created tenant', TenantView),
    },
    {
      method: 'get',
      path: '/api/v1/tenants/:id',
      tags: ['tenants'],
      summary: 'One tenant (platform:admin)',
      params: IdParam,
      responses: ok('Tenant', TenantView),
    },
    {
      method: 'patch',
      path: '/api/v1/tenants/:id',
      tags: ['tenants'],
      summary: 'Rename a tenant (platform:admin)',
      params: IdParam,
      body: UpdateTenant,
      responses: ok('Renamed tenant', TenantView),
    },
    {
      method: 'delete',
      path: '/api/v1/tenants/:id',
      tags: ['tenants'],
      summary: 'Delete a tenant (platform:admin)',
      params: IdParam,
      responses: noContent('Deleted'),
    },
    {
      method: 'get',
      path: '/api/v1/tenants/:id/audit-events',
      tags: ['tenants'],
      summary: "A tenant's authentication audit trail, newest first (platform:admin)",
      params: IdParam,
      query: AuditQuery,
      responses: ok('Audit events', ItemList(AuthEventView)),
    },
  ];
  const config: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/config',
      tags: ['config'],
      summary: "The caller's tenant settings and branding (config:read)",
      responses: ok('Tenant configuration', TenantConfigView),
    },
    {
      method: 'patch',
      path: '/api/v1/config',
      tags: ['config'],
      summary: 'JSON merge patch of settings and branding (admin:config)',
      body: ConfigPatch,
      responses: ok('Tenant configuration after the patch', TenantConfigView),
    },
  ];
  const workflow: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/workflow',
      tags: ['workflow'],
      summary: "List the tenant's care workflows (workflow:read)",
      query: WorkflowListQuery,
      responses: ok('Workflows', ItemList(WorkflowView)),
    },
    {
      method: 'post',
      path: '/api/v1/workflow',
      tags: ['workflow'],
      summary: 'Create a care workflow (workflow:access)',
      body: CreateWorkflow,
      responses: created('Created workflow', WorkflowView),
    },
    {
      method: 'get',
      path: '/api/v1/workflow/:id',
      tags: ['workflow'],
      summary: 'One care workflow (workflow:read)',
      params: UuidParam,
      responses: ok('Workflow', WorkflowView),
    },
    {
      method: 'put',
      path: '/api/v1/workflow/:id',
      tags: ['workflow'],
      summary: 'Replace a care workflow (optimistic locking on version; workflow:access)',
      params: UuidParam,
      body: ReplaceWorkflow,
      responses: ok('Replaced workflow', WorkflowView),
    },
    {
      method: 'delete',
      path: '/api/v1/workflow/:id',
      tags: ['workflow'],
      summary: 'Delete a care workflow (workflow:access)',
      params: UuidParam,
      responses: noContent('Deleted'),
    },
  ];
  const kb: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/kb/documents',
      tags: ['kb'],
      summary: "List the tenant's knowledge-base documents, without content (kb:read)",
      query: ListDocumentsQuery,
      responses: ok('Documents', ItemList(KbDocumentView)),
    },
    {
      method: 'post',
      path: '/api/v1/kb/documents',
      tags: ['kb'],
      summary: 'Add a document (indexed into memory when configured; kb:access)',
      body: CreateDocument,
      responses: created('Created document', KbDocumentView),
    },
    {
      method: 'get',
      path: '/api/v1/kb/search',
      tags: ['kb'],
      summary:
        "Search the tenant's knowledge base through the memory service: one passage per document, the best (kb:read; 503 without memory)",
      query: SearchQuery,
      responses: ok('Passages, at most one per document', KbSearchResult),
    },
    {
      method: 'get',
      path: '/api/v1/kb/documents/:id',
      tags: ['kb'],
      summary: 'One document with content (kb:read)',
      params: UuidParam,
      responses: ok('Document', KbDocumentView),
    },
    {
      method: 'delete',
      path: '/api/v1/kb/documents/:id',
      tags: ['kb'],
      summary: 'Delete a document (kb:access)',
      params: UuidParam,
      responses: noContent('Deleted'),
    },
  ];
  const chat: RouteDoc[] = [
    {
      method: 'post',
      path: '/api/v1/chat',
      tags: ['chat'],
      summary: 'Streaming consultation, proxied to care-consult POST /api/chat (chat:access)',
      body: ChatRequest,
      responses: {
        '200': {
          description: 'SSE stream (see care-consult /openapi.json)',
          schema: SseStream,
          contentType: 'text/event-stream',
        },
      },
    },
    {
      method: 'get',
      path: '/api/v1/chat/threads/:thread_id',
      tags: ['chat'],
      summary: 'Thread history, proxied to care-consult GET /api/chat/threads/{thread_id} (chat:access)',
      description: 'The query string (limit, cursor) is forwarded unchanged; care-consult validates it.',
      responses: ok('One page of the thread history', ThreadHistory),
    },
  ];
  const actuator: RouteDoc[] = [
    {
      method: 'get',
      path: '/actuator',
      tags: ['actuator'],
      summary: 'Links to the actuator endpoints',
      responses: ok('Links', ActuatorLinks),
      security: OPEN,
    },
    {
      method: 'get',
      path: '/actuator/health',
      tags: ['actuator'],
      summary: 'Health with components (503 unless UP)',
      responses: { ...ok('UP', ActuatorHealth), '503': { description: 'Not UP', schema: ActuatorHealth } },
      security: OPEN,
    },
    {
      method: 'get',
      path: '/actuator/health/liveness',
      tags: ['actuator'],
      summary: 'Liveness (process only)',
      responses: ok('Status', ActuatorStatus),
      security: OPEN,
    },
    {
      method: 'get',
      path: '/actuator/health/readiness',
      tags: ['actuator'],
      summary: 'Readiness (database; OUT_OF_SERVICE while draining)',
      responses: { ...ok('UP', ActuatorStatus), '503': { description: 'Not ready', schema: ActuatorStatus } },
      security: OPEN,
    },
    {
      method: 'get',
      path: '/actuator/health/:component',
      tags: ['actuator'],
      summary: 'One health component',
      responses: {
        ...ok('UP', ActuatorStatus),
        '503': { description: 'Component not UP', schema: ActuatorStatus },
      },
      security: OPEN,
    },
    {
      method: 'get',
      path: '/actuator/info',
      tags: ['actuator'],
      summary: 'Build and git information',
      responses: ok('Build information', ActuatorInfo),
      security: OPEN,
    },
  ];
  if (o.sensitiveActuator === 'admin') {
    actuator.push(
      {
        method: 'get',
        path: '/actuator/metrics',
        tags: ['actuator'],
        summary: 'Metric names (platform:admin)',
        responses: ok('Names', ActuatorMetricNames),
      },
      {
        method: 'get',
        path: '/actuator/metrics/:name',
        tags: ['actuator'],
        summary: 'One metric, optionally narrowed by tag=key:value (platform:admin)',
        query: Type.Object({
          tag: Type.Optional(
            Type.Union([Type.String(), Type.Array(Type.String())], {
              description: 'key:value filter; repeatable',
            }),
          ),
        }),
        responses: ok('Metric', ActuatorMetric),
      },
      {
        method: 'get',
        path: '/actuator/prometheus',
        tags: ['actuator'],
        summary: 'Prometheus scrape (platform:admin)',
        responses: { '200': { description: 'Metrics', schema: PrometheusText, contentType: 'text/plain' } },
      },
      {
        method: 'get',
        path: '/actuator/env',
        tags: ['actuator'],
        summary: 'Configuration and environment names, values masked (platform:admin)',
        responses: ok('Property sources', ActuatorEnv),
      },
      {
        method: 'get',
        path: '/actuator/env/:name',
        tags: ['actuator'],
        summary: 'Where one property comes from, value masked (platform:admin)',
        responses: ok('Property', ActuatorEnvProperty),
      },
    );
  }
  const meta: RouteDoc[] = [
    {
      method: 'get',
      path: '/openapi.json',
      tags: ['meta'],
      summary: 'This OpenAPI document',
      responses: ok('OpenAPI 3.1 document', JsonObject),
      security: OPEN,
    },
  ];
  return [...auth, ...users, ...tenants, ...config, ...workflow, ...kb, ...chat, ...actuator, ...meta];
}

/** The OpenAPI 3.1 document of platform-auth. */
export function platformAuthOpenApi(o: PlatformAuthDocOptions): Record<string, unknown> {
  return buildOpenApi({
    title: 'platform-auth',
    version: o.version,
    description:
      'Multi-tenant front door: login and tokens, users, tenants, configuration, workflows, knowledge base, the chat proxy to care-consult, and actuator endpoints. Scopes are checked against the path-scope map; a path without a mapping is denied.',
    security: ['bearerAuth'],
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    tags: [
      { name: 'auth', description: 'Login, refresh, logout, caller' },
      { name: 'users', description: "The tenant's users" },
      { name: 'tenants', description: 'Tenants (platform administrators)' },
      { name: 'config', description: 'Tenant settings and branding' },
      { name: 'workflow', description: 'Care workflow definitions' },
      { name: 'kb', description: 'Knowledge-base documents' },
      { name: 'chat', description: 'Consultation, proxied to care-consult' },
      { name: 'actuator', description: 'Operational endpoints' },
      { name: 'meta', description: 'API description' },
    ],
    routes: platformAuthRoutes(o),
  });
}
