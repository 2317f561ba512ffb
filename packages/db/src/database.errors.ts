/**
 * The database settings cannot work (unsupported DATABASE_URI, bad role name, ...). Thrown at startup so a
 * service refuses to start instead of running against the wrong store.
 */
export class DatabaseConfigError extends Error {
  /** Stable machine-readable code, mirrors the problem+json `code` convention. */
  readonly code = 'DATABASE_CONFIG_INVALID';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseConfigError';
  }
}

/**
 * The runtime role could read past row-level security (superuser, BYPASSRLS, or owner of a table). Thrown by
 * `assertSafeRuntimeRole` so tenant isolation never silently depends on a misconfigured role.
 */
export class UnsafeRuntimeRoleError extends Error {
  /** Stable machine-readable code. */
  readonly code = 'UNSAFE_RUNTIME_ROLE';

  constructor(
    message: string,
    /** Each reason the role is unsafe, one line each. */
    readonly reasons: string[],
  ) {
    super(message);
    this.name = 'UnsafeRuntimeRoleError';
  }
}

/** `withTenant` was called without a usable tenant id (blank, NUL, lone surrogate); nothing was run. */
export class TenantRequiredError extends Error {
  /** Stable machine-readable code. */
  readonly code = 'TENANT_REQUIRED';

  constructor(
    message = 'A non-blank tenant id (well-formed text, no NUL) is required for a tenant transaction',
  ) {
    super(message);
    this.name = 'TenantRequiredError';
  }
}

/** Seconds after which the lock of a process that died without releasing it is taken over. */
export const LOCK_STALE_SECONDS = 60;

/**
 * The embedded database folder is held by another running process (ADR 0011). Thrown at startup so a second
 * replica or a second `pnpm start` fails at once instead of silently diverging from the first.
 */
export class DataDirLockedError extends DatabaseConfigError {
  constructor(
    /** The PGlite data folder. */
    readonly dataDir: string,
    /** The lock beside it. */
    readonly lockPath: string,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another process (lock ${lockPath}). ` +
        'PGlite allows one process per data folder: stop the other process, give this one its own DATA_DIR, ' +
        'or set DATABASE_URI to a PostgreSQL server to run several replicas. A lock left by a crashed process ' +
        `expires ${LOCK_STALE_SECONDS} s after it stopped.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * A PostgreSQL server lacks an extension the service's migrations need (memory needs pgvector). Thrown before any
 * migration runs, with what to do, instead of the bare `extension "vector" is not available` of CREATE EXTENSION.
 */
export class MissingExtensionError extends DatabaseConfigError {
  constructor(
    /** Extension name as in `pg_available_extensions`. */
    readonly extension: string,
    appName: string,
  ) {
    super(
      `${appName} needs the PostgreSQL extension "${extension}" (pgvector), but the server does not offer it ` +
        '(it is not in pg_available_extensions). Install pgvector on the server (e.g. the pgvector/pgvector image, ' +
        'the postgresql-<major>-pgvector package, or a managed PostgreSQL with pgvector enabled), or leave ' +
        'DATABASE_URI unset to use the embedded database, which ships it.',
    );
    this.name = 'MissingExtensionError';
  }
}
