// The memory operations as MCP tools (ADR 0313): the same services, schemas and partition as the REST routes
// of /api/v1/memory, so the two ways in cannot drift.
import {
  IntrospectRequest,
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
  RememberRequest,
  ScratchpadList,
  ScratchpadRequest,
  SuppressRequest,
  Type,
  WhyNotRequest,
  WhyNotResponse,
} from '@care/contracts';
import type { TObject } from '@care/contracts';
import { AppError, tenantOf, type Logger } from '@care/service-kit';
import {
  createMcpServer,
  defineTool,
  mcpEndpoint,
  McpError,
  ErrorCode,
  toolError,
  type McpTool,
  type Server,
} from '@care/service-kit/mcp';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandler } from 'express';
import type { AppDeps } from '../app';
import { NoBody } from '../http/no-body';
import { IdParams } from '../memories/memories.schemas';

/** The services behind the tools: the same instances the REST routes use. */
export type MemoryToolServices = Pick<
  AppDeps,
  'memories' | 'recall' | 'whyNot' | 'introspect' | 'reminders' | 'reflect' | 'partitionStatus'
>;

/** Who a memory tool call acts for: the partition the REST tenant rules chose. */
export interface MemoryCaller {
  partition: string;
}

type Tool = McpTool<MemoryCaller>;

const withId = <B extends TObject>(body: B) =>
  Type.Composite([IdParams, body], { additionalProperties: false });

/** URI of a memory as an MCP resource. */
const memoryUri = (id: string) => `memory://${encodeURIComponent(id)}`;
const MEMORY_URI = /^memory:\/\/([A-Za-z0-9_.:%-]+)$/;

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const SET = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * The memory tools, one per memory operation of the REST API (scratchpad and reminder split into their read and
 * write halves). None in RAG mode, where the operations are disabled (ADR 0301).
 */
export function memoryTools(s: MemoryToolServices, mode: string): Tool[] {
  if (mode === 'RAG') return [];
  return [
    defineTool({
      name: 'remember',
      title: 'Remember',
      description: "Store a memory (episodic, semantic, procedural or working) in the caller's partition.",
      input: RememberRequest,
      output: MemoryView,
      hints: WRITE,
      run: async (args, c: MemoryCaller) => ({ result: await s.memories.remember(c.partition, args) }),
    }),
    defineTool({
      name: 'recall',
      title: 'Recall',
      description:
        'Fused vector and full-text recall across tiers; records an access on every returned memory. Each result is also linked as a memory://{id} resource.',
      input: RecallRequest,
      output: RecallResponse,
      // Not read-only: every returned memory gets an access recorded (count, last access), which feeds recency.
      hints: WRITE,
      run: async (args, c: MemoryCaller) => {
        const result = await s.recall.recall(c.partition, args);
        return {
          result,
          content: result.results.map((r) => ({
            type: 'resource_link' as const,
            uri: memoryUri(r.id),
            name: r.id,
            description: r.text.slice(0, 200),
            mimeType: 'application/json',
          })),
        };
      },
    }),
    defineTool({
      name: 'forget',
      title: 'Forget',
      description: 'Tombstone a memory: it leaves recall for good (stays readable for audit).',
      input: IdParams,
      output: MemoryView,
      // Irreversible; a second call changes nothing (the memory is already forgotten and the call is refused).
      hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      run: async (args, c: MemoryCaller) => ({ result: await s.memories.forget(c.partition, args.id) }),
    }),
    defineTool({
      name: 'reinforce',
      title: 'Reinforce',
      description: "Apply a POSITIVE or NEGATIVE outcome to a memory's strength.",
      input: withId(ReinforceRequest),
      output: MemoryView,
      hints: WRITE,
      run: async ({ id, ...body }, c: MemoryCaller) => ({
        result: await s.memories.reinforce(c.partition, id, body),
      }),
    }),
    defineTool({
      name: 'suppress',
      title: 'Suppress',
      description: 'Suppress a memory from recall (suppressed: true) or include it again (false).',
      input: withId(SuppressRequest),
      output: MemoryView,
      hints: SET,
      run: async ({ id, suppressed }, c: MemoryCaller) => ({
        result: await s.memories.suppress(c.partition, id, suppressed),
      }),
    }),
    defineTool({
      name: 'resolve',
      title: 'Resolve',
      description: 'Mark a memory (an open question or task) resolved; the first resolution time is kept.',
      input: IdParams,
      output: MemoryView,
      hints: SET,
      run: async (args, c: MemoryCaller) => ({ result: await s.memories.resolve(c.partition, args.id) }),
    }),
    defineTool({
      name: 'introspect',
      title: 'Introspect',
      description:
        'What the partition knows about a topic: counts, freshness, strength, unresolved items, confidence.',
      input: IntrospectRequest,
      output: IntrospectResponse,
      hints: READ,
      run: async (args, c: MemoryCaller) => ({
        result: await s.introspect.introspect(c.partition, args.topic),
      }),
    }),
    defineTool({
      name: 'why_not',
      title: 'Why not',
      description: 'Explain why a memory was not recalled for a query (never records accesses).',
      input: WhyNotRequest,
      output: WhyNotResponse,
      hints: READ,
      run: async (args, c: MemoryCaller) => ({ result: await s.whyNot.whyNot(c.partition, args) }),
    }),
    defineTool({
      name: 'scratchpad_get',
      title: 'Read scratchpad',
      description: 'The live working-memory (scratchpad) entries of the partition.',
      input: NoBody,
      output: ScratchpadList,
      hints: READ,
      run: async (_args, c: MemoryCaller) => ({
        result: { partition: c.partition, entries: await s.memories.listScratchpad(c.partition) },
      }),
    }),
    defineTool({
      name: 'scratchpad_set',
      title: 'Write scratchpad',
      description: 'Add a working-memory entry that expires after ttlSeconds.',
      input: ScratchpadRequest,
      output: MemoryView,
      hints: WRITE,
      run: async (args, c: MemoryCaller) => ({ result: await s.memories.scratchpad(c.partition, args) }),
    }),
    defineTool({
      name: 'reminder_create',
      title: 'Create reminder',
      description: 'Schedule a reminder that becomes a memory after delaySeconds.',
      input: ReminderRequest,
      output: ReminderView,
      hints: WRITE,
      run: async (args, c: MemoryCaller) => ({ result: await s.reminders.schedule(c.partition, args) }),
    }),
    defineTool({
      name: 'reminder_list',
      title: 'List reminders',
      description: 'The reminders of the partition, pending and fired.',
      input: NoBody,
      output: ReminderList,
      hints: READ,
      run: async (_args, c: MemoryCaller) => ({ result: await s.reminders.list(c.partition) }),
    }),
    defineTool({
      name: 'reflect',
      title: 'Reflect',
      description: 'Run consolidation now: merge duplicates, promote recurring episodes, decay and expire.',
      input: NoBody,
      output: ReflectReport,
      // Merges and expiry cannot be undone.
      hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      run: async (_args, c: MemoryCaller) => ({ result: await s.reflect.reflect(c.partition, 'manual') }),
    }),
    defineTool({
      name: 'status',
      title: 'Partition status',
      description: 'Tier counts, partition information and persistence status.',
      input: NoBody,
      output: PartitionStatus,
      hints: READ,
      run: async (_args, c: MemoryCaller) => ({ result: await s.partitionStatus.status(c.partition) }),
    }),
  ];
}

/** `memory://{id}` resources: a template, and reads through the same service as GET /api/v1/memory/{id}. */
function addMemoryResources(
  server: Server,
  s: MemoryToolServices,
  caller: MemoryCaller,
  logger: Logger,
): void {
  // Listing every memory of a partition is not offered; recall results link the resources they return.
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: 'memory://{id}',
        name: 'memory',
        title: "A memory of the caller's partition",
        description:
          'One memory or document in any state, with its provenance links (as GET /api/v1/memory/{id}).',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const match = MEMORY_URI.exec(request.params.uri);
    const id = match ? decodeURIComponent(match[1]!) : undefined;
    if (!id || !/^[A-Za-z0-9_.:-]{1,200}$/.test(id)) {
      throw new McpError(ErrorCode.InvalidParams, `Not a memory resource URI: ${request.params.uri}`);
    }
    try {
      const view = await s.memories.get(caller.partition, id);
      return { contents: [{ uri: memoryUri(id), mimeType: 'application/json', text: JSON.stringify(view) }] };
    } catch (err) {
      // A missing memory (or one of another partition) is "resource not found" (MCP error -32002).
      if (err instanceof AppError && err.status < 500) {
        throw new McpError(-32002, 'Resource not found', { uri: request.params.uri, code: err.code });
      }
      return toolError(err, logger) as never;
    }
  });
}

/** POST /mcp: one stateless MCP server per request, acting for the partition of the request. */
export function memoryMcpEndpoint(
  s: MemoryToolServices,
  mode: string,
  version: string,
  logger: Logger,
): RequestHandler {
  const tools = memoryTools(s, mode);
  return mcpEndpoint((req) => {
    const caller: MemoryCaller = { partition: tenantOf(req) };
    return createMcpServer({
      name: 'care-memory',
      version,
      instructions:
        'Long-term memory of one partition (the tenant of your credentials). Recall before answering, remember what the user states, forget on request.',
      tools,
      caller,
      logger,
      ...(mode === 'RAG'
        ? {}
        : {
            capabilities: { resources: {} },
            extend: (server: Server) => addMemoryResources(server, s, caller, logger),
          }),
    });
  });
}
