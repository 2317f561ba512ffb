import { UnauthorizedError } from '../errors';
import {
  createAccessTokenVerifier,
  type AccessTokenVerifier,
  type AccessTokenVerifierConfig,
} from './access-token-verifier';

/** The config values a verifier is built from (the variables of `tokenVerificationConfigFields`). */
export interface TokenVerificationConfig {
  AUTH_PROVIDER?: 'builtin' | 'external';
  JWT_SECRET?: string;
  JWT_ISSUER: string;
  JWT_AUDIENCE: string;
  AUTH_JWKS_URI?: string;
  AUTH_ISSUER?: string;
  AUTH_AUDIENCE?: string;
  /** platform-auth only: most JWKS fetches per minute. */
  AUTH_JWKS_REQUESTS_PER_MINUTE?: number;
}

/** Options of {@link verifierFromConfig}. */
export interface VerifierFromConfigOptions {
  /** Clock in milliseconds (tests move it). */
  now?: () => number;
  /**
   * Builtin mode without `JWT_SECRET`: `none` (default) builds no verifier (tokens are not verified: memory);
   * `refuse` builds one that answers every token 401 (care-consult in dev, so nothing is open by accident).
   */
  withoutSecret?: 'none' | 'refuse';
}

/** The verifier settings of the configured mode; undefined in builtin mode without a secret. */
export function verifierSettingsFromConfig(
  config: TokenVerificationConfig,
): AccessTokenVerifierConfig | undefined {
  if (config.AUTH_PROVIDER === 'external') {
    return {
      mode: 'external',
      jwksUri: config.AUTH_JWKS_URI,
      issuer: config.AUTH_ISSUER ?? '',
      audience: config.AUTH_AUDIENCE ?? '',
      ...(config.AUTH_JWKS_REQUESTS_PER_MINUTE === undefined
        ? {}
        : { jwksRequestsPerMinute: config.AUTH_JWKS_REQUESTS_PER_MINUTE }),
    };
  }
  if (!config.JWT_SECRET) return undefined;
  return {
    mode: 'builtin',
    secret: config.JWT_SECRET,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  };
}

/**
 * Builds the platform access-token verifier from config (ADR 0006, 0007): RS256/ES256 keys of the provider's JWKS
 * when `AUTH_PROVIDER=external`, else HS256 with `JWT_SECRET`. Builtin mode without a secret follows
 * `withoutSecret`; services whose config requires the secret never get there.
 */
export function verifierFromConfig(
  config: TokenVerificationConfig,
  options: VerifierFromConfigOptions & { withoutSecret: 'refuse' },
): AccessTokenVerifier;
export function verifierFromConfig(
  config: TokenVerificationConfig,
  options?: VerifierFromConfigOptions,
): AccessTokenVerifier | undefined;
export function verifierFromConfig(
  config: TokenVerificationConfig,
  options: VerifierFromConfigOptions = {},
): AccessTokenVerifier | undefined {
  const settings = verifierSettingsFromConfig(config);
  if (!settings) {
    if (options.withoutSecret !== 'refuse') return undefined;
    return {
      verify: async () => {
        throw new UnauthorizedError(
          'No JWT_SECRET is configured: tokens cannot be verified',
          'INVALID_TOKEN',
        );
      },
    };
  }
  return createAccessTokenVerifier({ ...settings, ...(options.now ? { now: options.now } : {}) });
}
