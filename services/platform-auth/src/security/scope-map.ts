import { compareSpecificity, compilePattern, matchesPattern, type PathPattern } from './path-pattern';

/** One row of the path-scope map (ADR 0102). */
export interface ScopeMappingRow {
  path: string;
  method: string;
  requiredScope: string;
}

interface Compiled extends ScopeMappingRow {
  pattern: PathPattern;
}

const METHODS = new Set(['ALL', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The path-scope map, compiled once from its rows. Lookup keeps the rows whose method is the request's (HEAD
 * also counts as GET, because Express answers HEAD with the GET handler) or `ALL` and whose pattern matches,
 * then picks the most specific pattern, then a method-specific row over `ALL`. No row: undefined (deny).
 */
export class ScopeMap {
  private readonly rows: Compiled[];

  constructor(rows: readonly ScopeMappingRow[]) {
    this.rows = rows.map((r) => {
      const method = r.method.toUpperCase();
      if (!METHODS.has(method)) throw new Error(`Unsupported method in scope mapping: ${r.method}`);
      if (!r.requiredScope) throw new Error(`Scope mapping ${r.path} ${r.method} has no scope`);
      return { ...r, method, pattern: compilePattern(r.path) };
    });
  }

  /** The mapping that governs `method` on a canonical path, or undefined. */
  find(method: string, canonicalPath: string): ScopeMappingRow | undefined {
    const m = method.toUpperCase();
    const rank = (row: Compiled) =>
      row.method === m ? 0 : m === 'HEAD' && row.method === 'GET' ? 1 : row.method === 'ALL' ? 2 : -1;
    let best: Compiled | undefined;
    for (const row of this.rows) {
      if (rank(row) < 0 || !matchesPattern(row.pattern, canonicalPath)) continue;
      if (!best) {
        best = row;
        continue;
      }
      const bySpecificity = compareSpecificity(row.pattern, best.pattern);
      if (bySpecificity < 0 || (bySpecificity === 0 && rank(row) < rank(best))) best = row;
    }
    return best && { path: best.path, method: best.method, requiredScope: best.requiredScope };
  }
}
