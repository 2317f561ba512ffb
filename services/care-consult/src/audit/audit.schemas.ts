import { Type } from '@care/contracts';

/** Query of `GET /api/audit`. */
export const AuditListQuery = Type.Object(
  {
    actorId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    action: Type.Optional(Type.String({ pattern: '^[a-z0-9_.-]+\\*?$', maxLength: 128 })),
    resourceType: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    resourceId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    outcome: Type.Optional(
      Type.Union([Type.Literal('success'), Type.Literal('failure'), Type.Literal('denied')]),
    ),
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);
