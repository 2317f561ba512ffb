import { asc } from 'drizzle-orm';
import type { Database, Tx } from '@care/db';
import { AppError } from '@care/service-kit';
import { scopeMappings } from '../db/schema';
import { ScopeMap, type ScopeMappingRow } from './scope-map';
import type { ScopeMapSource } from './access-control';

/** Every row of the path-scope map. */
async function listScopeMappings(tx: Tx): Promise<ScopeMappingRow[]> {
  return tx.select().from(scopeMappings).orderBy(asc(scopeMappings.path), asc(scopeMappings.method));
}

/**
 * The path-scope map from the database: loaded once (first request) and kept; a failed load is retried on the next
 * request and answers 503 meanwhile, never "allow".
 */
export class DbScopeMapSource implements ScopeMapSource {
  private cached: Promise<ScopeMap> | undefined;

  constructor(private readonly db: Database) {}

  get(): Promise<ScopeMap> {
    this.cached ??= this.db.withSystem(listScopeMappings).then(
      (rows) => new ScopeMap(rows),
      (err: unknown) => {
        this.cached = undefined;
        throw new AppError('ACCESS_RULES_UNAVAILABLE', 'The access rules could not be loaded', 503, {
          cause: err,
        });
      },
    );
    return this.cached;
  }
}
