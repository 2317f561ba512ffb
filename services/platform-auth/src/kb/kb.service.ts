import { randomUUID } from 'node:crypto';
import type { Database } from '@care/db';
import type { KbDocumentView as KbDocumentViewSchema, Static } from '@care/contracts';
import { NotFoundError, ServiceUnavailableError } from '@care/service-kit';
import { unregisteredTenant } from '../db/db-errors';
import {
  deleteDocument,
  findDocument,
  insertDocument,
  listDocuments,
  setIndexStatus,
  type KbDocumentRecord,
} from './kb.repository';
import type { CreateDocument } from './kb.schemas';
import type { KbHit, MemoryIndexer } from './memory-indexer';

type KbDocumentView = Static<typeof KbDocumentViewSchema>;

const view = (r: KbDocumentRecord, withContent: boolean): KbDocumentView => {
  const { content, createdAt, updatedAt, ...rest } = r;
  return {
    ...rest,
    ...(withContent ? { content } : {}),
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
};
const notFound = () => new NotFoundError('No such document', 'DOCUMENT_NOT_FOUND');

/**
 * Knowledge-base documents of the caller's tenant. Documents are stored tenant-scoped here (the source of truth);
 * when a memory indexer is configured each new document is also pushed to the memory service, best effort
 * (ADR 0106): the outcome is recorded as `indexStatus` and a failure never fails the upload.
 */
export class KbService {
  constructor(private readonly d: { db: Database; clock: () => Date; indexer?: MemoryIndexer }) {}

  list(tenantId: string, opts: { q?: string; limit: number; offset: number }): Promise<KbDocumentView[]> {
    return this.d.db.withTenant(tenantId, async (tx) =>
      (await listDocuments(tx, opts)).map((r) => view(r, false)),
    );
  }

  get(tenantId: string, id: string): Promise<KbDocumentView> {
    return this.d.db.withTenant(tenantId, async (tx) => {
      const doc = await findDocument(tx, id);
      if (!doc) throw notFound();
      return view(doc, true);
    });
  }

  async create(tenantId: string, body: CreateDocument): Promise<KbDocumentView> {
    const { db, indexer } = this.d;
    const now = this.d.clock();
    const row: KbDocumentRecord = {
      tenantId: tenantId,
      id: randomUUID(),
      title: body.title,
      content: body.content,
      contentType: body.contentType ?? 'text/plain',
      tags: body.tags ?? [],
      indexStatus: 'NOT_INDEXED',
      createdAt: now,
      updatedAt: now,
    };
    try {
      await db.withTenant(tenantId, (tx) => insertDocument(tx, row));
    } catch (err) {
      throw unregisteredTenant(err, tenantId);
    }
    if (indexer) {
      row.indexStatus = (await indexer.index(tenantId, row)) ? 'INDEXED' : 'FAILED';
      await db.withTenant(tenantId, (tx) => setIndexStatus(tx, row.id, row.indexStatus));
    }
    return view(row, true);
  }

  /** The tenant's passages that best answer `q`, through the memory service (503 when it is not configured or down). */
  async search(tenantId: string, q: string, limit: number): Promise<KbHit[]> {
    if (!this.d.indexer)
      throw new ServiceUnavailableError(
        'Knowledge-base search needs the memory service (MEMORY_BASE_URL)',
        'KB_SEARCH_UNAVAILABLE',
      );
    try {
      return await this.d.indexer.search(tenantId, q, limit);
    } catch {
      throw new ServiceUnavailableError(
        'The memory service is not reachable; try again later',
        'KB_SEARCH_UNAVAILABLE',
      );
    }
  }

  async remove(tenantId: string, id: string): Promise<void> {
    const doc = await this.d.db.withTenant(tenantId, async (tx) => {
      const found = await findDocument(tx, id);
      if (!found) throw notFound();
      await deleteDocument(tx, id);
      return found;
    });
    if (this.d.indexer && doc.indexStatus !== 'NOT_INDEXED') await this.d.indexer.remove(tenantId, doc);
  }
}
