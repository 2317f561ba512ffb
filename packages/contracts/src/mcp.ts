import { Type } from '@sinclair/typebox';
import type { RouteDoc } from './openapi';
import { Problem, PROBLEM_CONTENT_TYPE } from './problem';

// The Model Context Protocol endpoints (`POST /mcp`, ADR 0015) as the OpenAPI documents describe them: the
// body is a JSON-RPC 2.0 message (the MCP SDK validates the rest); tool arguments and results are described by
// each tool's own schemas in `tools/list`, not here.

const JsonRpcId = Type.Union([Type.String(), Type.Integer()]);

/** A JSON-RPC 2.0 request or notification (one MCP message). */
export const JsonRpcMessage = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(JsonRpcId),
    method: Type.String({ minLength: 1 }),
    params: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true, description: 'MCP message, e.g. initialize, tools/list, tools/call' },
);

/** A JSON-RPC 2.0 response: `result` or `error` (MCP errors such as -32602 invalid params). */
export const JsonRpcResponse = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([JsonRpcId, Type.Null()]),
    result: Type.Optional(Type.Object({}, { additionalProperties: true })),
    error: Type.Optional(
      Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) }),
    ),
  },
  { additionalProperties: true },
);

// care-consult MCP tools (ADR 0427) whose REST routes have no counterpart: reading a skill reference and one
// consult turn as a single answer instead of an SSE stream.

const SkillOrAgentId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' });

/** `get_agent` arguments. */
export const GetAgentArgs = Type.Object({ agent_id: SkillOrAgentId }, { additionalProperties: false });

/** `read_skill_reference` arguments: the skill and the reference file (`basics.md` or `references/basics.md`). */
export const SkillReferenceArgs = Type.Object(
  { skill_id: SkillOrAgentId, reference: Type.String({ minLength: 1, maxLength: 300 }) },
  { additionalProperties: false },
);

/** `read_skill_reference` result: the listing fields and the full text. */
export const SkillReferenceText = Type.Object({
  skill_id: Type.String(),
  name: Type.String(),
  path: Type.String(),
  title: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  text: Type.String(),
});

/** `consult` arguments: one user question, optionally continuing one of the caller's own threads. */
export const ConsultArgs = Type.Object(
  {
    question: Type.String({ minLength: 1, maxLength: 32000, pattern: '\\S' }),
    thread_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' })),
    agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    allow_clinical: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** A source the answer cites: its number in the answer, kind (`kb`, `memory`, `skill`), id and title. */
export const ConsultCitation = Type.Object({
  n: Type.Integer({ minimum: 1 }),
  kind: Type.String(),
  id: Type.String(),
  title: Type.String(),
  document_id: Type.Optional(Type.String()),
});

/** `consult` result: the whole turn as `/api/chat` would have streamed it, collected. */
export const ConsultResult = Type.Object({
  thread_id: Type.String(),
  checkpoint_id: Type.String(),
  agent_id: NullableString,
  agent_name: NullableString,
  routed: Type.Boolean(),
  provider: Type.String(),
  model: Type.String(),
  status: Type.Union([Type.Literal('complete'), Type.Literal('refused'), Type.Literal('error')]),
  answer: Type.String({
    description: 'the answer text, or the refusal message when the red-flag screen stopped the turn',
  }),
  citations: Type.Array(ConsultCitation),
  suggestions: Type.Array(Type.String()),
  tools_used: Type.Array(Type.Object({ tool: Type.String(), status: Type.String() })),
  refusal: Type.Union([
    Type.Object({ reason: Type.String(), category: Type.String(), message: Type.String() }),
    Type.Null(),
  ]),
  error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
});

/** The answers of `POST /mcp` as both MCP servers document them: a JSON-RPC response, or 202 for a notification. */
export const MCP_POST_RESPONSES: RouteDoc['responses'] = {
  '200': { description: 'JSON-RPC response', schema: JsonRpcResponse },
  '202': { description: 'Notification accepted (no body)' },
};

/**
 * `GET` and `DELETE /mcp` as both MCP servers document them: not offered (stateless Streamable HTTP keeps no server
 * stream and no session, ADR 0015), 405 with `Allow: POST`.
 */
export function mcpNotOfferedRouteDocs(tag: string): RouteDoc[] {
  const refused = {
    '405': {
      description: 'Method not allowed (Allow: POST)',
      schema: Problem,
      contentType: PROBLEM_CONTENT_TYPE,
    },
  };
  return [
    {
      method: 'get',
      path: '/mcp',
      tags: [tag],
      summary: 'Not offered (stateless MCP: no server stream)',
      responses: refused,
    },
    {
      method: 'delete',
      path: '/mcp',
      tags: [tag],
      summary: 'Not offered (stateless MCP: no session)',
      responses: refused,
    },
  ];
}
