/** Every scope the platform knows, in a stable order. */
export const ALL_SCOPES = [
  'chat:access',
  'chat:read',
  'workflow:access',
  'workflow:read',
  'kb:access',
  'kb:read',
  'config:read',
  'admin:config',
  'admin:users',
  'platform:admin',
] as const;

/** A platform scope. */
export type Scope = (typeof ALL_SCOPES)[number];

/** The four platform roles. */
export const ROLES = ['PLATFORM_ADMIN', 'TENANT_ADMIN', 'USER', 'VIEWER'] as const;

/** A platform role. */
export type Role = (typeof ROLES)[number];

/** Use of the three areas: every chat, workflow and kb scope. */
const AREA_USE: Scope[] = ALL_SCOPES.filter((s) => /^(chat|workflow|kb):/.test(s));

/** Which scopes each role grants (ADR 0102 maps request paths to these scopes). Data, so the mapping is reviewed in one place. */
export const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = Object.freeze({
  PLATFORM_ADMIN: ALL_SCOPES,
  TENANT_ADMIN: [...AREA_USE, 'admin:users', 'admin:config', 'config:read'],
  USER: [...AREA_USE, 'config:read'],
  VIEWER: ['chat:read', 'workflow:read', 'kb:read', 'config:read'],
});

/** Whether a string is one of the platform roles. */
function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * The union of the scopes of `roles`, sorted by {@link ALL_SCOPES}. Unknown role names grant nothing
 * (an identity provider may send roles of other applications).
 */
export function rolesToScopes(roles: readonly string[]): string[] {
  const granted = new Set<string>();
  for (const role of roles) if (isRole(role)) for (const s of ROLE_SCOPES[role]) granted.add(s);
  return ALL_SCOPES.filter((s) => granted.has(s));
}
