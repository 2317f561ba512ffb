import { sql } from 'drizzle-orm';
import type { Db } from '@care/db';

/** SQL text of `vector(dim)` for an integer dimension (typmods cannot be bind parameters, so it is checked here). */
export function vectorType(dim: number): string {
  if (!Number.isInteger(dim) || dim < 1 || dim > 16000)
    throw new RangeError(`invalid vector dimension ${dim}`);
  return `vector(${dim})`;
}

/**
 * pgvector text of a query vector, each component with the 9 significant digits that identify its float32
 * exactly: PostgreSQL reads the same float32 values as from the full double text, from about half the characters
 * (parsing the text is a visible share of a recall in WASM).
 */
export function vectorLiteral(v: readonly number[]): string {
  const component = (x: number) => {
    const f = Math.fround(x);
    return f === 0 ? (Object.is(f, -0) ? '-0' : '0') : f.toPrecision(9);
  };
  return `[${v.map(component).join(',')}]`;
}

/**
 * HNSW indexes per vector size. The `embedding` column has no fixed size (one schema serves every provider),
 * so each size gets a partial expression index `((embedding::vector(d))) WHERE dim = d`, created by the owner
 * the first time a partition of that size appears. Queries use the same expression and predicate.
 */
export class VectorIndexes {
  private readonly ready = new Set<number>();

  constructor(private readonly db: Db) {}

  /** Creates the indexes for `dim` if missing (idempotent, safe when two replicas race). */
  async ensure(dim: number): Promise<void> {
    if (this.ready.has(dim)) return;
    const type = vectorType(dim);
    const statements = [
      `CREATE INDEX IF NOT EXISTS memories_embedding_hnsw_${dim} ON memories USING hnsw ((embedding::${type}) vector_cosine_ops) WHERE dim = ${dim}`,
    ];
    for (const statement of statements) {
      try {
        await this.db.execute(sql.raw(statement));
      } catch (err) {
        // A concurrent creator can win between IF NOT EXISTS and the insert into pg_class.
        if (!/already exists|duplicate key/i.test(err instanceof Error ? err.message : String(err)))
          throw err;
      }
    }
    this.ready.add(dim);
  }
}
