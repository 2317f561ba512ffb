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
