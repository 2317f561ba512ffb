import fc from 'fast-check';
import request from 'supertest';
import { isOpenRoute } from '../src/auth/auth.middleware';
import { aUser } from './builders/user.builder';
import { createTestContext, type TestContext } from './support/test-app';

describe('authentication of /api', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('refuses a request without a token with 401 problem+json and a Bearer challenge', async () => {
    const res = await request(ctx.app).get('/api/agents').expect(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it.each([
    [
      'signed with another secret',
      () => aUser().token({ secret: 'another-secret-that-is-long-enough-0123456789' }),
    ],
    ['expired', () => aUser().token({ expiresIn: -10 })],
    ['from another issuer', () => aUser().token({ issuer: 'someone-else' })],
    ['not a JWT', () => 'not.a.jwt'],
  ])('refuses a token %s with 401', async (_label, token) => {
    const res = await request(ctx.app)
      .get('/api/agents')
      .set('Authorization', `Bearer ${token()}`)
      .expect(401);
    expect(res.body.code).toBe('INVALID_TOKEN');
  });

  it('accepts a valid platform-auth token', async () => {
    await request(ctx.app).get('/api/agents').set('Authorization', `Bearer ${aUser().token()}`).expect(200);
  });

  it('keeps GET /api/health open in any spelling Express routes to it, but not other methods', async () => {
    await request(ctx.app).get('/api/health').expect(200);
    await request(ctx.app).get('/API/Health/').expect(200);
    await request(ctx.app).post('/api/health').expect(401);
  });

  it('answers unknown /api paths with 401 to anonymous callers and 404 to authenticated ones', async () => {
    await request(ctx.app).get('/api/nothing-here').expect(401);
    await request(ctx.app)
      .get('/api/nothing-here')
      .set('Authorization', `Bearer ${aUser().token()}`)
      .expect(404);
  });

  it('treats only the listed routes as open, whatever path is tried', () => {
    const open = new Set(['/health', '/relay/callback']);
    fc.assert(
      fc.property(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE'), fc.webPath(), (method, path) => {
        const norm = path.toLowerCase().replace(/(.)\/$/, '$1');
        const expected = (method === 'GET' || method === 'HEAD') && open.has(norm);
        expect(isOpenRoute(method, path)).toBe(expected);
      }),
    );
    expect(isOpenRoute('GET', '/health/x')).toBe(false);
    expect(isOpenRoute('GET', '/relay/callback/')).toBe(true);
  });
});
