import { randomUUID } from 'node:crypto';
import type { Database } from '@care/db';
import { NotFoundError, ServiceUnavailableError } from '@care/service-kit';
import type { RequestContext } from '../security/request-context';
import { FOREIGN_KEY_VIOLATION, sqlState } from '../shared/db-errors';
import { deleteDocument, findDocument, insertDocument, listDocuments, setIndexStatus, type KbDocumentRecord } from './kb.repository';
import type { CreateDocument } from './kb.schemas';
import type { KbHit, MemoryIndexer } from './memory-indexer';

/** API view of a document (the list leaves the content out). */
export type KbDocumentView = Omit<KbDocumentRecord, 'tenantId' | 'createdAt' | 'updatedAt' | 'content'> & {
  tenantId: string;
  content?: string;
  createdAt: string;
  updatedAt: string;
};

/** Knowledge-base documents of the caller's tenant. */
export interface KbService {
  list(ctx: RequestContext, opts: { q?: string; limit: number; offset: number }): Promise<KbDocumentView[]>;
  get(ctx: RequestContext, id: string): Promise<KbDocumentView>;
  create(ctx: RequestContext, body: CreateDocument): Promise<KbDocumentView>;
  remove(ctx: RequestContext, id: string): Promise<void>;
  /** The tenant's passages that best answer `q`, through the memory service (503 when it is not configured or down). */
  search(ctx: RequestContext, q: string, limit: number): Promise<KbHit[]>;
}

const view = (r: KbDocumentRecord, withContent: boolean): KbDocumentView => {
  const { content, createdAt, updatedAt, ...rest } = r;
  return { ...rest, ...(withContent ? { content } : {}), createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
};
const notFound = () => new NotFoundError('No such document', 'DOCUMENT_NOT_FOUND');

/**
 * Creates the knowledge-base service. Documents are stored tenant-scoped here (the source of truth); when a
 * memory indexer is configured each new document is also pushed to the memory service, best effort: the
 * outcome is recorded as `indexStatus` and a failure never fails the upload.
 */
export function createKbService(d: { db: Database; clock: () => Date; indexer?: MemoryIndexer }): KbService {
  return {
    list: (ctx, opts) => d.db.withTenant(ctx.tenantId, async (tx) => (await listDocuments(tx, ctx.tenantId, opts)).map((r) => view(r, false))),
    get: (ctx, id) =>
      d.db.withTenant(ctx.tenantId, async (tx) => {
        const doc = await findDocument(tx, ctx.tenantId, id);
        if (!doc) throw notFound();
        return view(doc, true);
      }),
    async create(ctx, body) {
      const now = d.clock();
      const row: KbDocumentRecord = {
        tenantId: ctx.tenantId,
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
        await d.db.withTenant(ctx.tenantId, (tx) => insertDocument(tx, row));
      } catch (err) {
        if (sqlState(err) === FOREIGN_KEY_VIOLATION) throw new NotFoundError(`Tenant ${ctx.tenantId} is not registered; a platform administrator must create it`, 'TENANT_NOT_FOUND');
        throw err;
      }
      if (d.indexer) {
        row.indexStatus = (await d.indexer.index(ctx.tenantId, row)) ? 'INDEXED' : 'FAILED';
        await d.db.withTenant(ctx.tenantId, (tx) => setIndexStatus(tx, ctx.tenantId, row.id, row.indexStatus));
      }
      return view(row, true);
    },
    async search(ctx, q, limit) {
      if (!d.indexer) throw new ServiceUnavailableError('Knowledge-base search needs the memory service (MEMORY_BASE_URL)', 'KB_SEARCH_UNAVAILABLE');
      try {
        return await d.indexer.search(ctx.tenantId, q, limit);
      } catch {
        throw new ServiceUnavailableError('The memory service is not reachable; try again later', 'KB_SEARCH_UNAVAILABLE');
      }
    },
    async remove(ctx, id) {
      const doc = await d.db.withTenant(ctx.tenantId, async (tx) => {
        const found = await findDocument(tx, ctx.tenantId, id);
        if (!found) throw notFound();
        await deleteDocument(tx, ctx.tenantId, id);
        return found;
      });
      if (d.indexer && doc.indexStatus !== 'NOT_INDEXED') await d.indexer.remove(ctx.tenantId, doc);
    },
  };
}
