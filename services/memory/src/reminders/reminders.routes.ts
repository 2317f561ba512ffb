import { Router } from 'express';
import { ReminderRequest } from '@care/contracts';
import { validate } from '@care/service-kit';
import type { AppDeps } from '../app';
import { tenantOf } from '../http/tenant.middleware';

/** Scheduling and listing reminders (ReminderScheduler fires them). */
export function remindersRoutes(deps: Pick<AppDeps, 'reminders'>): Router {
  const r = Router();
  r.post('/api/v1/memory/reminder', validate({ body: ReminderRequest }), async (req, res) => {
    res.json(await deps.reminders.schedule(tenantOf(res), req.body));
  });
  r.get('/api/v1/memory/reminders', async (_req, res) => {
    res.json(await deps.reminders.list(tenantOf(res)));
  });
  return r;
}
