// The caller of a request: set by bearerAuth (or setCaller), read by callerOf (401 when absent) and
// optionalCallerOf; the tenant from the caller or a recorded partition; the request id as one string type.
import type { Request } from 'express';
import request from 'supertest';
import jwt from 'jsonwebtoken';
import {
  bearerAuth,
  callerOf,
  createAccessTokenVerifier,
  createLogger,
  createServiceApp,
  finalizeApp,
  optionalCallerOf,
  requestIdOf,
  setCaller,
  setTenant,
  tenantOf,
  UnauthorizedError,
  type Caller,
} from '../../src';

const caller: Caller = { userId: 'u1', tenantId: 'acme', roles: ['USER'], scopes: ['chat:access'] };
const bare = () => ({}) as Request;

describe('caller', () => {
  it('callerOf returns the caller that was set and throws a 401 problem without one', () => {
    const req = bare();
    expect(() => callerOf(req)).toThrow(UnauthorizedError);
    expect(optionalCallerOf(req)).toBeUndefined();
    setCaller(req, caller);
    expect(callerOf(req)).toBe(caller);
    expect(optionalCallerOf(req)).toBe(caller);
  });

  it("tenantOf is the caller's tenant, else the recorded partition, else 401", () => {
    const req = bare();
    expect(() => tenantOf(req)).toThrow(UnauthorizedError);
    setTenant(req, 'partition-1');
    expect(tenantOf(req)).toBe('partition-1');
    setCaller(req, caller);
    expect(tenantOf(req)).toBe('acme');
  });

  it('requestIdOf is always a string', () => {
    expect(requestIdOf(bare())).toBe('');
    expect(requestIdOf({ id: 42 } as unknown as Request)).toBe('42');
  });

  it('is what bearerAuth sets, with the request id the service app assigns', async () => {
    const secret = 'a-jwt-secret-of-at-least-thirty-two-bytes';
    const verifier = createAccessTokenVerifier({ mode: 'builtin', secret, issuer: 'i', audience: 'a' });
    const app = createServiceApp({ logger: createLogger({ name: 't', level: 'silent' }), corsOrigins: [] });
    app.get('/who', bearerAuth(verifier, { optional: true }), (req, res) => {
      res.json({ caller: optionalCallerOf(req)?.userId ?? null, requestId: requestIdOf(req) });
    });
    app.get('/me', bearerAuth(verifier, { optional: true }), (req, res) => {
      res.json({ tenant: callerOf(req).tenantId });
    });
    finalizeApp(app);
    const token = jwt.sign({ sub: 'u9', tenantId: 't9', roles: ['USER'] }, secret, {
      algorithm: 'HS256',
      issuer: 'i',
      audience: 'a',
      expiresIn: 60,
    });
    const withToken = await request(app)
      .get('/who')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Request-Id', 'req-123');
    expect(withToken.body).toEqual({ caller: 'u9', requestId: 'req-123' });
    expect((await request(app).get('/who')).body.caller).toBeNull();
    expect((await request(app).get('/me').set('Authorization', `Bearer ${token}`)).body).toEqual({
      tenant: 't9',
    });
    expect((await request(app).get('/me')).status).toBe(401);
  });
});
