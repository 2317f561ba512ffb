import { Type } from '@sinclair/typebox';

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
