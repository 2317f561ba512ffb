import { sql, type SQL } from 'drizzle-orm';

/** `array[...]::type[]` of bound values (works the same on node-postgres and PGlite). */
export function sqlArray(values: ReadonlyArray<string | number>, type: string): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::${sql.raw(type)}[]`;
}
