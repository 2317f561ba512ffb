import { LoginThrottle } from '../src/auth/login-throttle';

function throttle() {
  let now = 1_000_000;
  const t = new LoginThrottle({
    maxAccountFailures: 3,
    lockoutSeconds: 60,
    maxIpFailures: 5,
    ipWindowSeconds: 30,
    now: () => now,
    maxEntries: 50,
  });
  return { t, tick: (s: number) => (now += s * 1000) };
}

describe('LoginThrottle', () => {
  it('locks an email after the configured failures for the lockout period', async () => {
    const { t, tick } = throttle();
    for (let i = 0; i < 2; i++) await t.recordFailure('a@x', `10.0.0.${i}`);
    expect(await t.retryAfter('a@x', '10.0.0.9')).toBe(0);
    await t.recordFailure('a@x', '10.0.0.3');
    expect(await t.retryAfter('a@x', '10.0.0.9')).toBe(60);
    tick(59);
    expect(await t.retryAfter('a@x', '10.0.0.9')).toBe(1);
    tick(1);
    expect(await t.retryAfter('a@x', '10.0.0.9')).toBe(0);
  });

  it('forgets failures older than the lockout period and clears them on success', async () => {
    const { t, tick } = throttle();
    await t.recordFailure('a@x', '1');
    await t.recordFailure('a@x', '2');
    tick(61);
    await t.recordFailure('a@x', '3');
    expect(await t.retryAfter('a@x', '9')).toBe(0);
    await t.recordFailure('a@x', '4');
    await t.recordSuccess('a@x');
    await t.recordFailure('a@x', '5');
    expect(await t.retryAfter('a@x', '9')).toBe(0);
  });

  it('refuses an IP with too many failures across emails until its window ends', async () => {
    const { t, tick } = throttle();
    for (let i = 0; i < 5; i++) await t.recordFailure(`user${i}@x`, '203.0.113.7');
    expect(await t.retryAfter('fresh@x', '203.0.113.7')).toBe(30);
    expect(await t.retryAfter('fresh@x', '203.0.113.8')).toBe(0);
    tick(30);
    expect(await t.retryAfter('fresh@x', '203.0.113.7')).toBe(0);
  });

  it('keeps memory bounded by forgetting the oldest keys', async () => {
    const { t } = throttle();
    for (let i = 0; i < 3; i++) await t.recordFailure('first@x', `ip${i}`);
    for (let i = 0; i < 60; i++) await t.recordFailure(`spray${i}@x`, `ip-${i}`);
    expect(await t.retryAfter('first@x', 'new-ip')).toBe(0);
  });
});
