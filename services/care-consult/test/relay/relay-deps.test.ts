import { InMemoryNonceStore } from '@care/crypto';
import { TEST_JWT_SECRET as JWT_SECRET } from '@care/service-kit/testing';
import { loadAppConfig } from '../../src/config';
import { assertRelayUsable, createRelayRuntime, relayKeysFromConfig } from '../../src/relay/relay.deps';
import { PREVIOUS_RELAY_KEY, RELAY_KEY } from './support/relay-fixtures';

function configProblems(env: Record<string, string>): string {
  try {
    loadAppConfig({ JWT_SECRET, ...env });
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('relay configuration', () => {
  it('refuses to start in prod without RELAY_SIGNING_KEY, and with keys shorter than 32 characters', () => {
    expect(configProblems({ APP_PROFILES_ACTIVE: 'prod' })).toContain(
      'RELAY_SIGNING_KEY is required in prod',
    );
    expect(configProblems({ RELAY_SIGNING_KEY: 'short' })).toContain('RELAY_SIGNING_KEY must be at least 32');
    expect(
      configProblems({ RELAY_SIGNING_KEY: RELAY_KEY, RELAY_PREVIOUS_KEYS: `${PREVIOUS_RELAY_KEY},short` }),
    ).toContain('RELAY_PREVIOUS_KEYS');
    expect(configProblems({ APP_PROFILES_ACTIVE: 'prod', RELAY_SIGNING_KEY: RELAY_KEY })).not.toContain(
      'RELAY',
    );
  });

  it('reads the signing key and the previous keys in order', () => {
    const keys = relayKeysFromConfig({
      RELAY_SIGNING_KEY: RELAY_KEY,
      RELAY_PREVIOUS_KEYS: `${PREVIOUS_RELAY_KEY}, ${'p'.repeat(40)}`,
    });
    expect(keys).toEqual({ current: RELAY_KEY, previous: [PREVIOUS_RELAY_KEY, 'p'.repeat(40)] });
  });

  it('uses a random per-process key with a warning when no signing key is set (dev)', () => {
    const warnings: string[] = [];
    const logger = { warn: (msg: string) => warnings.push(msg) };
    const a = relayKeysFromConfig({}, logger as never);
    const b = relayKeysFromConfig({}, logger as never);
    expect(String(a.current)).toMatch(/^[0-9a-f]{64}$/);
    expect(a.current).not.toBe(b.current);
    expect(warnings).toHaveLength(2);
  });

  it('fails the boot self-test for an unusable companion scheme', async () => {
    await expect(assertRelayUsable({ current: RELAY_KEY }, 'https')).rejects.toMatchObject({
      code: 'RELAY_INVALID_COMPANION_SCHEME',
    });
    await expect(assertRelayUsable({ current: RELAY_KEY }, 'careapp')).resolves.toBeUndefined();
  });

  it('uses the in-process nonce store when REDIS_URL is not set', async () => {
    const runtime = await createRelayRuntime({
      RELAY_SIGNING_KEY: RELAY_KEY,
      RELAY_COMPANION_SCHEME: 'careapp',
    });
    expect(runtime.relay.nonceStore).toBeInstanceOf(InMemoryNonceStore);
    await runtime.close();
  });
});
