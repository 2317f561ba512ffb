import jwt from 'jsonwebtoken';

/** HS256 key test apps verify with (at least 32 bytes). */
export const TEST_JWT_SECRET = 'test-secret-of-at-least-thirty-two-bytes!';

/**
 * Signs an access token the way platform-auth issues them: HS256, `iss` and `aud` `care-platform`, 5 minutes;
 * `claims` (`sub`, `tenantId`, `roles`, ...) and `options` override, `secret` defaults to {@link TEST_JWT_SECRET}.
 */
export function signTestToken(
  claims: Record<string, unknown>,
  options: jwt.SignOptions = {},
  secret: string = TEST_JWT_SECRET,
): string {
  return jwt.sign(claims, secret, {
    algorithm: 'HS256',
    issuer: 'care-platform',
    audience: 'care-platform',
    expiresIn: 300,
    ...options,
  });
}
