import { Type } from '@care/contracts';

/** `GET /api/chat/threads` query: page size and the cursor of the previous page. */
export const ThreadListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

/** `GET /api/chat/threads/{thread_id}` query: page size and the cursor of the previous page. */
export const ThreadHistoryQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 12 })),
  },
  { additionalProperties: false },
);

/** `GET /api/chat/threads/{thread_id}` path parameter. */
export const ThreadParams = Type.Object({
  thread_id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' }),
});
