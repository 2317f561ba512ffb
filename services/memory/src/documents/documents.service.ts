import type { DocumentIngest, DocumentIngestResult } from '@care/contracts';
import { refuseTakenId, type MemoryWriteDeps } from '../memories/memories.service';
import { findMemory } from '../memories/memories.repository';
import { memoryView } from '../memories/memory.model';
import { writableSpace } from '../partitions/partition-space';
import { VectorDimensionError } from './documents.errors';
import { upsertDocument } from './documents.repository';

/** Document ingestion (every operating mode): documents come with their vector, computed by the caller. */
export class DocumentsService {
  constructor(private readonly deps: Omit<MemoryWriteDeps, 'config'>) {}

  /** Stores or replaces a document with its pre-computed vector (400 when its size is not the partition's). */
  async ingestDocument(tenantId: string, body: DocumentIngest): Promise<DocumentIngestResult> {
    const dimension = await this.deps.embeddings.dimension();
    await this.deps.indexes.ensure(dimension);
    const now = this.deps.clock();
    return this.deps.database.withTenant(tenantId, async (tx) => {
      const space = await writableSpace(tx, this.deps.embeddings, dimension, now);
      if (body.vector.length !== space.dimension)
        throw new VectorDimensionError(body.vector.length, space.dimension);
      const outcome = await upsertDocument(tx, {
        tenantId,
        id: body.id,
        tier: 'documents',
        type: 'SEMANTIC',
        source: 'DOCUMENT',
        text: body.text,
        tags: body.tags ?? [],
        embedding: body.vector,
        createdAt: now,
      });
      if (outcome === 'blocked')
        await refuseTakenId(tx, body.id, 'a memory that is not a document', this.deps.clock());
      const row = (await findMemory(tx, body.id))!;
      return { ...memoryView(row, now), created: outcome === 'created' };
    });
  }
}
