import { Paging, Type, type Static } from '@care/contracts';

/** POST /api/v1/kb/documents. */
export const CreateDocument = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 300 }),
    content: Type.String({ minLength: 1, maxLength: 500_000 }),
    contentType: Type.Optional(Type.Union([Type.Literal('text/plain'), Type.Literal('text/markdown')])),
    tags: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Za-z0-9._:-]{1,64}$' }), { maxItems: 20, uniqueItems: true }),
    ),
  },
  { additionalProperties: false },
);
/** Create-document body. */
export type CreateDocument = Static<typeof CreateDocument>;

/** GET /api/v1/kb/documents query. */
export const ListDocumentsQuery = Type.Object(
  { q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), ...Paging },
  { additionalProperties: false },
);

/** GET /api/v1/kb/search query. */
export const SearchQuery = Type.Object(
  {
    q: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
  },
  { additionalProperties: false },
);
