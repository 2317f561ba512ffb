import { Type, type Static } from '@care/contracts';

const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$' });
const brandingFields = {
  displayName: Type.String({ minLength: 1, maxLength: 120 }),
  logoUrl: Type.String({ format: 'uri', maxLength: 2048, pattern: '^https://' }),
  primaryColor: Color,
  accentColor: Color,
  supportEmail: Type.String({ format: 'email', maxLength: 320 }),
};

const nullable = <T extends Record<string, ReturnType<typeof Type.String>>>(fields: T) =>
  Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, Type.Optional(Type.Union([v, Type.Null()]))]),
  );

/**
 * PATCH /api/v1/config: JSON merge patch (RFC 7396) of `settings` (free-form, keys of letters, digits, `._-`)
 * and `branding` (known fields); `null` removes a key.
 */
export const ConfigPatch = Type.Object(
  {
    settings: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$' }), Type.Unknown(), {
        maxProperties: 100,
        additionalProperties: false,
      }),
    ),
    branding: Type.Optional(Type.Object(nullable(brandingFields), { additionalProperties: false })),
  },
  { additionalProperties: false, minProperties: 1 },
);
/** Config patch body. */
export type ConfigPatch = Static<typeof ConfigPatch>;
