import { Router } from 'express';
import { ReminderRequest } from '@care/contracts';
import { tenantOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';

/** Scheduling and listing reminders (ReminderScheduler fires them). */
export function remindersRoutes(deps: Pick<AppDeps, 'reminders'>): Router {
  const r = Router();
  r.post('/api/v1/memory/reminder', validate({ body: ReminderRequest }), async (req, res) => {
    res.json(await deps.reminders.schedule(tenantOf(req), req.body));
  });
  r.get('/api/v1/memory/reminders', async (req, res) => {
    res.json(await deps.reminders.list(tenantOf(req)));
  });
  return r;
}
