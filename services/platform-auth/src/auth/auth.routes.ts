import { Router } from 'express';
import { LoginRequest, RefreshRequest } from '@care/contracts';
import { UnauthorizedError, validate } from '@care/service-kit';
import type { AppDeps } from '../app';
import { clientOf } from '../audit/audit.service';
import { builtinDisabled, describePrincipal } from './auth.service';

/**
 * `/api/v1/auth`: login, refresh, logout (builtin mode only; 404 in external mode, where `auth` is undefined) and
 * `me` (both modes). Open paths: the access pipeline has already verified a bearer token when one was sent.
 */
export function authRoutes({ auth }: Pick<AppDeps, 'auth'>): Router {
  const router = Router();
  const builtin = () => {
    if (!auth) throw builtinDisabled();
    return auth;
  };
  router.post('/api/v1/auth/login', validate({ body: LoginRequest }), async (req, res) => {
    const pair = await builtin().login(req.body.email, req.body.password, clientOf(req));
    res.set('Cache-Control', 'no-store').json(pair);
  });
  router.post('/api/v1/auth/refresh', validate({ body: RefreshRequest }), async (req, res) => {
    const pair = await builtin().refresh(req.body.refreshToken, clientOf(req));
    res.set('Cache-Control', 'no-store').json(pair);
  });
  router.post('/api/v1/auth/logout', validate({ body: RefreshRequest }), async (req, res) => {
    await builtin().logout(req.body.refreshToken, clientOf(req));
    res.status(204).end();
  });
  router.get('/api/v1/auth/me', (req, res) => {
    if (!req.principal) throw res.locals.authError ?? new UnauthorizedError();
    res.set('Cache-Control', 'no-store').json(describePrincipal(req.principal));
  });
  return router;
}
