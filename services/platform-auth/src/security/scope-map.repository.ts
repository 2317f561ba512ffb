import { asc } from 'drizzle-orm';
import type { Database, Tx } from '@care/db';
import { AppError } from '@care/service-kit';
import { scopeMappings } from '../db/schema';
import { ScopeMap, type ScopeMappingRow } from './scope-map';
import type { ScopeMapSource } from './access-control';

/** Every row of the path-scope map. */
export async function listScopeMappings(tx: Tx): Promise<ScopeMappingRow[]> {
  return tx.select().from(scopeMappings).orderBy(asc(scopeMappings.path), asc(scopeMappings.method));
}

/**
 * Loads the path-scope map once (first request) and keeps it; a failed load is retried on the next request
 * and answers 503 meanwhile, never "allow".
 */
export function createScopeMapSource(db: Database): ScopeMapSource & { reload(): void } {
  let cached: Promise<ScopeMap> | undefined;
  return {
    get() {
      cached ??= db.withSystem(listScopeMappings).then(
        (rows) => new ScopeMap(rows),
        (err: unknown) => {
          cached = undefined;
          throw new AppError('ACCESS_RULES_UNAVAILABLE', 'The access rules could not be loaded', 503, { cause: err });
        },
      );
      return cached;
    },
    reload() {
      cached = undefined;
    },
  };
}
