import { Router } from 'express';
import { validate } from '@care/service-kit';
import { contextOf } from '../security/request-context';
import { pageOf, UuidParam } from '../shared/schemas';
import { CreateUserRequest, UpdateUserRequest, UserQuery, UsersQuery } from './users.schemas';
import type { UsersService } from './users.service';

/** `/api/v1/users` (scope admin:users): CRUD of the caller's tenant's users; passwords are never returned. */
export function createUsersRouter(users: UsersService): Router {
  const router = Router();
  router.get('/', validate({ query: UsersQuery }), async (req, res) => {
    res.json({ items: await users.list(contextOf(req), res.locals.query.tenantId, pageOf(res.locals.query)) });
  });
  router.post('/', validate({ body: CreateUserRequest }), async (req, res) => {
    const user = await users.create(contextOf(req), req.body);
    res.status(201).location(`/api/v1/users/${user.id}`).json(user);
  });
  router.get('/:id', validate({ params: UuidParam, query: UserQuery }), async (req, res) => {
    res.json(await users.get(contextOf(req), res.locals.query.tenantId, req.params.id as string));
  });
  router.patch('/:id', validate({ params: UuidParam, query: UserQuery, body: UpdateUserRequest }), async (req, res) => {
    res.json(await users.update(contextOf(req), res.locals.query.tenantId, req.params.id as string, req.body));
  });
  router.delete('/:id', validate({ params: UuidParam, query: UserQuery }), async (req, res) => {
    await users.remove(contextOf(req), res.locals.query.tenantId, req.params.id as string);
    res.status(204).end();
  });
  return router;
}
