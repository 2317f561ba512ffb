import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';

/** Which engine a database handle talks to: embedded PGlite (WASM PostgreSQL) or a PostgreSQL server. */
export type DatabaseKind = 'pglite' | 'postgres';

/** Rows of an `execute()` result: the part node-postgres' `QueryResult` and PGlite's `Results` share. */
interface QueryRows<TRow> {
  rows: TRow[];
}

/** Query-result kind shared by both drivers, so `execute()` results are typed `{ rows }` on either engine. */
export interface CareQueryResultHKT extends PgQueryResultHKT {
  type: QueryRows<this['row']>;
}

type NoSchema = Record<string, never>;

/** A drizzle database usable by repositories for both drivers (query builder, `execute`, `transaction`). */
export type Db = PgDatabase<CareQueryResultHKT, NoSchema>;

/** The drizzle transaction handed to `withTenant` / `withSystem` callbacks, the same type for both drivers. */
export type Tx = PgTransaction<CareQueryResultHKT, NoSchema, ExtractTablesWithRelations<NoSchema>>;
