import { DatabaseConfigError } from './database.errors';

// Lower-case, unquoted-safe names only: they are interpolated into DDL (roles cannot be bound as parameters),
// so anything outside this alphabet is refused rather than quoted.
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
const RESERVED = new Set(['public', 'none', 'current_user', 'current_role', 'session_user', 'user', 'all']);

/**
 * Returns `name` when it is a plain lower-case SQL identifier (`[a-z_][a-z0-9_]*`, at most 63 bytes), else
 * throws `DatabaseConfigError`. `what` names the setting in the message.
 */
export function assertIdentifier(name: unknown, what: string): string {
  if (typeof name !== 'string' || !IDENTIFIER.test(name)) {
    throw new DatabaseConfigError(
      `${what} must be a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters), got ${JSON.stringify(name)}`,
    );
  }
  return name;
}

/** Like `assertIdentifier`, and also refuses names PostgreSQL reserves for roles (`pg_*`, `public`, ...). */
export function assertRoleName(name: unknown, what = 'runtimeRole'): string {
  const role = assertIdentifier(name, what);
  if (role.startsWith('pg_') || RESERVED.has(role)) {
    throw new DatabaseConfigError(`${what} ${JSON.stringify(role)} is reserved by PostgreSQL`);
  }
  return role;
}

/** Validates a table name, optionally schema-qualified (`schema.table`), each part a plain identifier. */
export function assertTableName(name: unknown): string {
  const parts = typeof name === 'string' ? name.split('.') : [name];
  if (parts.length > 2)
    throw new DatabaseConfigError(`table must be "table" or "schema.table", got ${JSON.stringify(name)}`);
  return parts.map((part) => assertIdentifier(part, 'table')).join('.');
}
