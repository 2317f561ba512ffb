import { Paging, Type, type Static } from '@care/contracts';

const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' });

/** One step of a care workflow: which agent handles it and where it may lead. */
export const WorkflowStep = Type.Object(
  {
    id: Slug,
    agentId: Slug,
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    instructions: Type.Optional(Type.String({ maxLength: 4000 })),
    next: Type.Optional(Type.Array(Slug, { maxItems: 20, uniqueItems: true })),
  },
  { additionalProperties: false },
);
/** Workflow step. */
export type WorkflowStep = Static<typeof WorkflowStep>;

const definition = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  steps: Type.Array(WorkflowStep, { minItems: 1, maxItems: 50 }),
};

/** POST /api/v1/workflow. */
export const CreateWorkflow = Type.Object(definition, { additionalProperties: false });
/** Create body. */
export type CreateWorkflow = Static<typeof CreateWorkflow>;

/** PUT /api/v1/workflow/{id}: the full definition plus the version being replaced (optimistic locking). */
export const ReplaceWorkflow = Type.Object(
  { ...definition, version: Type.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);
/** Replace body. */
export type ReplaceWorkflow = Static<typeof ReplaceWorkflow>;

/** GET /api/v1/workflow query. */
export const ListQuery = Type.Object(Paging, { additionalProperties: false });
