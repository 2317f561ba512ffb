/** The SQLSTATE of a database error, looking through drizzle's wrapper (`cause`). */
export function sqlState(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** SQLSTATE of a unique-constraint violation. */
export const UNIQUE_VIOLATION = '23505';
/** SQLSTATE of a foreign-key violation. */
export const FOREIGN_KEY_VIOLATION = '23503';
/** SQLSTATE of a deletion refused by `ON DELETE RESTRICT`. */
export const RESTRICT_VIOLATION = '23001';
