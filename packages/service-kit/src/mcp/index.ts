// Model Context Protocol endpoints of the services (ADR 0015), built on the official SDK
// (@modelcontextprotocol/sdk): the low-level `Server` with JSON Schemas from TypeBox, validated by the platform's
// one ajv (@care/contracts), served statelessly over Streamable HTTP (a new server and transport per request).
import type { Request, RequestHandler, Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { check, type Static, type TSchema } from '@care/contracts';
import { AppError } from '../errors';
import type { Logger } from '../logger';

/** What a tool promises about its effects (MCP tool annotations), stated for every tool. */
export interface ToolHints {
  /** Changes nothing. */
  readOnlyHint: boolean;
  /** May remove or irreversibly change data (meaningful only when not read-only). */
  destructiveHint: boolean;
  /** Repeating the call with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** Reaches outside the service's own data. */
  openWorldHint: boolean;
}

/** Extra content a tool adds after its JSON text (e.g. resource links). */
export type ToolContent = CallToolResult['content'];

/** One MCP tool: TypeBox input and output schemas, hints, and the service call behind it (given the caller `C`). */
export interface McpTool<C = unknown, I extends TSchema = TSchema> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: TSchema;
  hints: ToolHints;
  /** Runs the call with validated arguments; returns the structured result (and optional extra content). */
  run(
    args: Static<I>,
    caller: C,
    signal: AbortSignal,
  ): Promise<{ result: unknown; content?: ToolContent; isError?: boolean }>;
}

/** Declares a tool with its input type inferred from the schema. */
export function defineTool<C, I extends TSchema>(tool: McpTool<C, I>): McpTool<C> {
  return tool as unknown as McpTool<C>;
}

// TypeBox schemas carry symbol-keyed metadata; the wire form is the plain JSON Schema.
const plain = (schema: TSchema): Tool['inputSchema'] =>
  JSON.parse(JSON.stringify(schema)) as Tool['inputSchema'];

/** The `tools/list` entries of `tools`. */
function toolDescriptors(tools: readonly McpTool<never>[]): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: plain(t.input),
    outputSchema: plain(t.output) as Tool['outputSchema'],
    annotations: { title: t.title, ...t.hints },
  }));
}

/**
 * Turns an error of a tool call into the MCP answer: invalid arguments (ValidationError, 400) and refused
 * callers (401/403) are JSON-RPC errors; other client errors (404 not found, 409 wrong state, 429) are a tool
 * result with `isError` carrying the problem, so the agent can read it; anything else is an internal error
 * whose detail stays in the log.
 */
export function toolError(err: unknown, logger?: Logger): CallToolResult {
  if (err instanceof McpError) throw err;
  if (err instanceof AppError) {
    const problem = {
      code: err.code,
      status: err.status,
      detail: err.message,
      ...(err.errors ? { errors: err.errors } : {}),
    };
    if (err.status === 400) throw new McpError(ErrorCode.InvalidParams, err.message, problem);
    if (err.status === 401 || err.status === 403)
      throw new McpError(ErrorCode.InvalidRequest, err.message, problem);
    if (err.status < 500)
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(problem) }] };
  }
  logger?.error({ err }, 'MCP tool call failed');
  throw new McpError(ErrorCode.InternalError, 'Internal error');
}

/** Serialises a service answer as the route would (dates become ISO strings, undefined fields drop). */
const asJson = (value: unknown): Record<string, unknown> =>
  JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

/** Options of {@link createMcpServer}. */
export interface McpServerOptions<C> {
  name: string;
  version: string;
  instructions?: string;
  tools: readonly McpTool<C>[];
  /** The authenticated caller of this request, handed to every tool call. */
  caller: C;
  logger?: Logger;
  /** Extra capabilities (e.g. resources) whose handlers `extend` installs. */
  capabilities?: ServerCapabilities;
  extend?: (server: Server) => void;
}

/** A low-level MCP server answering `tools/list` and `tools/call` for `tools`, arguments checked by the shared ajv. */
export function createMcpServer<C>(opts: McpServerOptions<C>): Server {
  const server = new Server(
    { name: opts.name, version: opts.version },
    { capabilities: { tools: {}, ...opts.capabilities }, instructions: opts.instructions },
  );
  const byName = new Map(opts.tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolDescriptors(opts.tools) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args: unknown = request.params.arguments ?? {};
    const checked = check(tool.input, args);
    if (!checked.ok) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${tool.name}`, {
        code: 'VALIDATION_FAILED',
        errors: checked.issues,
      });
    }
    try {
      const { result, content, isError } = await tool.run(checked.value, opts.caller, extra.signal);
      const structured = asJson(result);
      return {
        ...(isError ? { isError } : {}),
        structuredContent: structured,
        content: [{ type: 'text', text: JSON.stringify(structured) }, ...(content ?? [])],
      };
    } catch (err) {
      return toolError(err, opts.logger);
    }
  });
  opts.extend?.(server);
  return server;
}

/**
 * Express handler of a stateless Streamable HTTP endpoint: every POST gets a fresh server (from `build`, which
 * sees the request's authenticated caller) and transport, so replicas need no session affinity. Answers are
 * plain JSON (no SSE stream); GET and DELETE (server streams and session ends) are 405 in stateless mode.
 */
export function mcpEndpoint(build: (req: Request, res: Response) => Server): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') {
      return next(
        new AppError('METHOD_NOT_ALLOWED', 'The MCP endpoint is stateless: POST JSON-RPC messages', 405, {
          headers: { Allow: 'POST' },
        }),
      );
    }
    let server: Server;
    try {
      server = build(req, res);
    } catch (err) {
      return next(err);
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res, req.body))
      .catch(next);
  };
}

export { Server, McpError, ErrorCode };
