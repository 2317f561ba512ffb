import { Router } from 'express';
import { pageOf, UuidParam } from '@care/contracts';
import { callerOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';
import { clientOf } from '../audit/audit.service';
import { CreateUserRequest, UpdateUserRequest, UserQuery, UsersQuery } from './users.schemas';

/** `/api/v1/users` (scope admin:users): CRUD of the caller's tenant's users; passwords are never returned. */
export function usersRoutes({ users }: Pick<AppDeps, 'users'>): Router {
  const router = Router();
  router.get('/api/v1/users', validate({ query: UsersQuery }), async (req, res) => {
    res.json({
      items: await users.list(
        callerOf(req),
        clientOf(req),
        res.locals.query.tenantId,
        pageOf(res.locals.query),
      ),
    });
  });
  router.post('/api/v1/users', validate({ body: CreateUserRequest }), async (req, res) => {
    const user = await users.create(callerOf(req), clientOf(req), req.body);
    res.status(201).location(`/api/v1/users/${user.id}`).json(user);
  });
  router.get('/api/v1/users/:id', validate({ params: UuidParam, query: UserQuery }), async (req, res) => {
    res.json(
      await users.get(callerOf(req), clientOf(req), res.locals.query.tenantId, req.params.id as string),
    );
  });
  router.patch(
    '/api/v1/users/:id',
    validate({ params: UuidParam, query: UserQuery, body: UpdateUserRequest }),
    async (req, res) => {
      res.json(
        await users.update(
          callerOf(req),
          clientOf(req),
          res.locals.query.tenantId,
          req.params.id as string,
          req.body,
        ),
      );
    },
  );
  router.delete('/api/v1/users/:id', validate({ params: UuidParam, query: UserQuery }), async (req, res) => {
    await users.remove(callerOf(req), clientOf(req), res.locals.query.tenantId, req.params.id as string);
    res.status(204).end();
  });
  return router;
}
