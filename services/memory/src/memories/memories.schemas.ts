import { Type } from '@care/contracts';

/** Path parameters of the operations on one memory (`/api/v1/memory/:id...`), also the MCP tools' `id`. */
export const IdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_.:-]+$' }),
});
