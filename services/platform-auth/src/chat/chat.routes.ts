import { Router } from 'express';
import type { AppDeps } from '../app';

/**
 * `/api/v1/chat` and everything under it, any method (chat:read for GET, chat:access otherwise): proxied to
 * care-consult's `/api/chat/**`.
 */
export function chatRoutes({ chat }: Pick<AppDeps, 'chat'>): Router {
  const router = Router();
  router.use('/api/v1/chat', chat.handle);
  return router;
}
