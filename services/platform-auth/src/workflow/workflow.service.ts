import { randomUUID } from 'node:crypto';
import type { Database } from '@care/db';
import type { Static, WorkflowView as WorkflowViewSchema } from '@care/contracts';
import { ConflictError, NotFoundError, ValidationError } from '@care/service-kit';
import { sqlState, UNIQUE_VIOLATION, unregisteredTenant } from '../db/db-errors';
import {
  deleteWorkflow,
  findWorkflow,
  insertWorkflow,
  listWorkflows,
  replaceWorkflow,
  type WorkflowRecord,
} from './workflow.repository';
import type { CreateWorkflow, ReplaceWorkflow, WorkflowStep } from './workflow.schemas';

type WorkflowView = Static<typeof WorkflowViewSchema>;

const view = ({ description, createdAt, updatedAt, ...rest }: WorkflowRecord): WorkflowView => ({
  ...rest,
  ...(description ? { description } : {}),
  createdAt: createdAt.toISOString(),
  updatedAt: updatedAt.toISOString(),
});
const notFound = () => new NotFoundError('No such workflow', 'WORKFLOW_NOT_FOUND');

/** Step ids are unique and every `next` names a step of the same workflow. */
function checkSteps(steps: readonly WorkflowStep[]): void {
  const ids = new Set<string>();
  const issues: { pointer: string; detail: string }[] = [];
  steps.forEach((s, i) => {
    if (ids.has(s.id)) issues.push({ pointer: `/steps/${i}/id`, detail: `duplicate step id ${s.id}` });
    ids.add(s.id);
  });
  steps.forEach((s, i) =>
    (s.next ?? []).forEach((n, j) => {
      if (!ids.has(n)) issues.push({ pointer: `/steps/${i}/next/${j}`, detail: `no step with id ${n}` });
    }),
  );
  if (issues.length)
    throw new ValidationError('The workflow steps are inconsistent', issues, 'INVALID_WORKFLOW');
}

function translate(err: unknown, tenantId: string): unknown {
  if (sqlState(err) === UNIQUE_VIOLATION)
    return new ConflictError('A workflow with this name exists', 'WORKFLOW_NAME_TAKEN');
  return unregisteredTenant(err, tenantId);
}

/** Care-workflow definitions of the caller's tenant; every query runs in the caller's tenant transaction. */
export class WorkflowService {
  constructor(private readonly d: { db: Database; clock: () => Date }) {}

  list(tenantId: string, page: { limit: number; offset: number }): Promise<WorkflowView[]> {
    return this.d.db.withTenant(tenantId, async (tx) => (await listWorkflows(tx, page)).map(view));
  }

  get(tenantId: string, id: string): Promise<WorkflowView> {
    return this.d.db.withTenant(tenantId, async (tx) => {
      const w = await findWorkflow(tx, id);
      if (!w) throw notFound();
      return view(w);
    });
  }

  async create(tenantId: string, body: CreateWorkflow): Promise<WorkflowView> {
    checkSteps(body.steps);
    const now = this.d.clock();
    const row: WorkflowRecord = {
      tenantId: tenantId,
      id: randomUUID(),
      name: body.name,
      description: body.description ?? null,
      version: 1,
      steps: body.steps,
      createdAt: now,
      updatedAt: now,
    };
    await this.d.db
      .withTenant(tenantId, (tx) => insertWorkflow(tx, row))
      .catch((err) => Promise.reject(translate(err, tenantId)));
    return view(row);
  }

  async replace(tenantId: string, id: string, body: ReplaceWorkflow): Promise<WorkflowView> {
    checkSteps(body.steps);
    const change = {
      name: body.name,
      description: body.description ?? null,
      steps: body.steps,
      updatedAt: this.d.clock(),
    };
    return this.d.db
      .withTenant(tenantId, async (tx) => {
        const updated = await replaceWorkflow(tx, id, body.version, change);
        if (updated) return view(updated);
        const current = await findWorkflow(tx, id);
        if (!current) throw notFound();
        throw new ConflictError(
          `The workflow is at version ${current.version}, not ${body.version}`,
          'VERSION_CONFLICT',
        );
      })
      .catch((err) => Promise.reject(translate(err, tenantId)));
  }

  remove(tenantId: string, id: string): Promise<void> {
    return this.d.db.withTenant(tenantId, async (tx) => {
      if (!(await deleteWorkflow(tx, id))) throw notFound();
    });
  }
}
