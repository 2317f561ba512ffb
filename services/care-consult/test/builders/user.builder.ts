import { TEST_JWT_SECRET, UserBuilder } from '@care/service-kit/testing';

export { TEST_JWT_SECRET, UserBuilder };

/** The kit's test caller with care-consult's defaults: tokens valid 15 minutes, as platform-auth issues them. */
class ConsultUser extends UserBuilder {
  override token(options: Parameters<UserBuilder['token']>[0] = {}): string {
    return super.token({ expiresIn: 900, ...options });
  }
}

/** Starts a test caller builder: tenant `tenant-a`, email `user@example.test`, role USER, a new id. */
export function aUser(): UserBuilder {
  return new ConsultUser({ tenantId: 'tenant-a', email: 'user@example.test' });
}
