import { Router } from 'express';
import {
  DocumentIngest,
  IntrospectRequest,
  RecallRequest,
  ReinforceRequest,
  ReminderRequest,
  RememberBatchRequest,
  RememberRequest,
  ScratchpadRequest,
  SuppressRequest,
  Type,
  WhyNotRequest,
} from '@care/contracts';
import { validate } from '@care/service-kit';
import { memoryModeGuard } from '../http/mode.middleware';
import { tenantOf } from '../http/tenant.middleware';
import type { IntrospectService } from '../introspect/introspect.service';
import type { PartitionStatusService } from '../partitions/partition-status.service';
import type { RecallService } from '../recall/recall.service';
import type { WhyNotService } from '../recall/why-not.service';
import type { ReflectService } from '../reflect/reflect.service';
import type { RemindersService } from '../reminders/reminders.service';
import type { MemoriesService } from './memories.service';
import type { RememberBatchService } from './remember-batch.service';

/** The services behind `/api/v1/memory`. */
export interface MemoryRouteServices {
  memories: MemoriesService;
  /** Bulk writes (ADR 0109). */
  batch: RememberBatchService;
  recall: RecallService;
  whyNot: WhyNotService;
  introspect: IntrospectService;
  reminders: RemindersService;
  reflect: ReflectService;
  status: PartitionStatusService;
}

export const IdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_.:-]+$' }),
});
// Operations whose spec body is "none" accept an absent or empty JSON object, nothing else.
export const NoBody = Type.Object({}, { additionalProperties: false });
const optionalEmpty = (schema = NoBody) => {
  const check = validate({ body: schema });
  return ((req, res, next) => (req.body === undefined ? next() : check(req, res, next))) as typeof check;
};

/** Routes of `/api/v1/memory`: ingestion (every mode) and the memory operations (MEMORY and HYBRID modes). */
export function createMemoryRouter(s: MemoryRouteServices, mode: string): Router {
  const r = Router();
  r.post('/', validate({ body: DocumentIngest }), async (req, res) => {
    res.json(await s.memories.ingestDocument(tenantOf(res), req.body));
  });

  r.use(memoryModeGuard(mode));
  r.get('/status', async (_req, res) => {
    res.json(await s.status.status(tenantOf(res)));
  });
  r.post('/remember', validate({ body: RememberRequest }), async (req, res) => {
    res.json(await s.memories.remember(tenantOf(res), req.body));
  });
  r.post('/remember/batch', validate({ body: RememberBatchRequest }), async (req, res) => {
    res.json(await s.batch.rememberBatch(tenantOf(res), req.body));
  });
  r.post('/recall', validate({ body: RecallRequest }), async (req, res) => {
    res.json(await s.recall.recall(tenantOf(res), req.body));
  });
  r.post('/why-not', validate({ body: WhyNotRequest }), async (req, res) => {
    res.json(await s.whyNot.whyNot(tenantOf(res), req.body));
  });
  r.post('/introspect', validate({ body: IntrospectRequest }), async (req, res) => {
    res.json(await s.introspect.introspect(tenantOf(res), req.body.topic));
  });
  r.post('/reminder', validate({ body: ReminderRequest }), async (req, res) => {
    res.json(await s.reminders.schedule(tenantOf(res), req.body));
  });
  r.get('/reminders', async (_req, res) => {
    res.json(await s.reminders.list(tenantOf(res)));
  });
  r.post('/scratchpad', validate({ body: ScratchpadRequest }), async (req, res) => {
    res.json(await s.memories.scratchpad(tenantOf(res), req.body));
  });
  r.get('/scratchpad', async (_req, res) => {
    res.json({ partition: tenantOf(res), entries: await s.memories.listScratchpad(tenantOf(res)) });
  });
  r.post('/reflect', optionalEmpty(), async (_req, res) => {
    res.json(await s.reflect.reflect(tenantOf(res), 'manual'));
  });
  r.get('/:id', validate({ params: IdParams }), async (req, res) => {
    res.json(await s.memories.get(tenantOf(res), String(req.params.id)));
  });
  r.delete('/:id', validate({ params: IdParams }), async (req, res) => {
    res.json(await s.memories.forget(tenantOf(res), String(req.params.id)));
  });
  r.post('/:id/reinforce', validate({ params: IdParams, body: ReinforceRequest }), async (req, res) => {
    res.json(await s.memories.reinforce(tenantOf(res), String(req.params.id), req.body));
  });
  r.post('/:id/suppress', validate({ params: IdParams, body: SuppressRequest }), async (req, res) => {
    res.json(await s.memories.suppress(tenantOf(res), String(req.params.id), req.body.suppressed));
  });
  r.post('/:id/resolve', validate({ params: IdParams }), optionalEmpty(), async (req, res) => {
    res.json(await s.memories.resolve(tenantOf(res), String(req.params.id)));
  });
  return r;
}
