import { Router } from 'express';
import type { AppDeps } from '../app';
import { platformAuthOpenApi, type PlatformAuthDocOptions } from './platform-auth.openapi';

/** `GET /openapi.json`: the service's OpenAPI document (ADR 0014), built once. */
export function openApiRoutes(
  { build }: Pick<AppDeps, 'build'>,
  sensitiveActuator: PlatformAuthDocOptions['sensitiveActuator'],
): Router {
  const router = Router();
  const body = JSON.stringify(platformAuthOpenApi({ version: build.version, sensitiveActuator }));
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'no-cache').send(body);
  });
  return router;
}
