import { Type } from '@care/contracts';
import { ConfigError, configTable, csv, HealthRegistry, loadConfig } from '../src';

const Schema = Type.Object({
  PORT: Type.Integer({ default: 8080, minimum: 1, maximum: 65535, description: 'listen port' }),
  JWT_SECRET: Type.String({ minLength: 32, description: 'HS256 key' }),
  APP_PROFILES_ACTIVE: Type.Union([Type.Literal('dev'), Type.Literal('prod')], { default: 'dev' }),
});

describe('loadConfig', () => {
  it('coerces, applies defaults and freezes', () => {
    const c = loadConfig(Schema, { PORT: '9000', JWT_SECRET: 'x'.repeat(32) });
    expect(c).toEqual({ PORT: 9000, JWT_SECRET: 'x'.repeat(32), APP_PROFILES_ACTIVE: 'dev' });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('lists every problem at once and never echoes a value', () => {
    let err: ConfigError | undefined;
    try {
      loadConfig(Schema, { PORT: 'abc', JWT_SECRET: 'short-secret-value', APP_PROFILES_ACTIVE: 'staging' });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.problems.length).toBeGreaterThanOrEqual(3);
    expect(err!.message).toMatch(/PORT/);
    expect(err!.message).toMatch(/JWT_SECRET/);
    expect(err!.message).not.toContain('short-secret-value');
  });

  it('runs cross-field rules after the schema passes', () => {
    expect(() =>
      loadConfig(Schema, { JWT_SECRET: 'x'.repeat(32) }, [
        (c) => c.PORT === 8080 && 'PORT must not be 8080 here',
      ]),
    ).toThrow(/PORT must not be 8080/);
  });

  it('renders an env table for READMEs', () => {
    expect(configTable(Schema)).toContain('| `PORT` | `8080` | listen port |');
    expect(configTable(Schema)).toContain('| `JWT_SECRET` | required | HS256 key |');
    expect(csv(' a, ,b ')).toEqual(['a', 'b']);
  });
});

describe('HealthRegistry', () => {
  it('is UP when every check passes and reports details', async () => {
    const h = new HealthRegistry().register('db', async () => ({ engine: 'pglite' }));
    expect(await h.readiness()).toEqual({
      status: 'UP',
      components: { db: { status: 'UP', details: { engine: 'pglite' } } },
    });
  });

  it('bounds a hung check by its timeout and reports DOWN', async () => {
    const h = new HealthRegistry().register('slow', () => new Promise(() => undefined), { timeoutMs: 50 });
    const r = await h.readiness();
    expect(r.status).toBe('DOWN');
    expect(r.components.slow.details).toEqual({ error: 'timed out after 50 ms' });
  });

  it('ignores non-readiness checks for the overall status', async () => {
    const h = new HealthRegistry().register(
      'optional',
      async () => {
        throw new Error('off');
      },
      { readiness: false },
    );
    expect((await h.readiness()).status).toBe('UP');
  });

  it('turns OUT_OF_SERVICE while draining but stays alive', async () => {
    const h = new HealthRegistry();
    h.setDraining();
    expect((await h.readiness()).status).toBe('OUT_OF_SERVICE');
    expect(h.liveness().status).toBe('UP');
  });
});
