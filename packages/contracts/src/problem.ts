import { Type, type Static } from '@sinclair/typebox';

/** RFC 9457 problem details as every service of the platform writes them (ADR 0002). */
export const Problem = Type.Object(
  {
    type: Type.String({ description: 'URI reference naming the problem type' }),
    title: Type.String(),
    status: Type.Integer({ minimum: 100, maximum: 599 }),
    detail: Type.Optional(Type.String()),
    instance: Type.Optional(Type.String()),
    code: Type.String({ pattern: '^[A-Z][A-Z0-9_]*$', description: 'stable machine-readable code' }),
    requestId: Type.Optional(Type.String()),
    errors: Type.Optional(
      Type.Array(
        Type.Object({ pointer: Type.String(), detail: Type.String() }, { additionalProperties: false }),
      ),
    ),
  },
  { $id: 'Problem', additionalProperties: true },
);
/** A problem+json body. */
export type Problem = Static<typeof Problem>;

/** Media type of problem details. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
