import type { Logger } from '@care/service-kit';

/** Pushes knowledge-base documents into the memory service so agents can recall them. */
export interface MemoryIndexer {
  /** Best effort: true when every chunk was accepted. Never throws. */
  index(tenantId: string, doc: { id: string; title: string; content: string; tags: string[] }): Promise<boolean>;
  /** Best effort removal of the chunks of a document. Never throws. */
  remove(tenantId: string, doc: { id: string; title: string; content: string }): Promise<void>;
}

/** Settings of {@link createMemoryIndexer}. */
export interface MemoryIndexerOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  logger: Logger;
  fetchImpl?: typeof fetch;
}

/** Characters per remembered chunk: under the memory service's 20 000-character limit. */
export const CHUNK_CHARS = 8000;

/** Splits text into chunks of at most CHUNK_CHARS characters (code points are never split). */
export function chunkText(text: string): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += CHUNK_CHARS) out.push(chars.slice(i, i + CHUNK_CHARS).join(''));
  return out.length ? out : [''];
}

const chunkId = (docId: string, i: number) => `kb:${docId}:${i}`;

/**
 * Indexes through the memory service's `POST /api/v1/memory/remember` (type SEMANTIC, source DOCUMENT), which
 * embeds the text itself; `POST /api/v1/memory` would need a vector this service cannot compute. The tenant is
 * the memory partition (`X-Tenant-Id`).
 */
export function createMemoryIndexer(o: MemoryIndexerOptions): MemoryIndexer {
  const f = o.fetchImpl ?? fetch;
  const base = o.baseUrl.replace(/\/+$/, '');
  const headers = (tenantId: string) => ({
    'content-type': 'application/json',
    'x-tenant-id': tenantId,
    ...(o.apiKey ? { 'x-api-key': o.apiKey } : {}),
  });
  const call = async (tenantId: string, method: string, path: string, body?: unknown) => {
    const res = await f(`${base}${path}`, { method, headers: headers(tenantId), body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(o.timeoutMs) });
    await res.arrayBuffer();
    return res.status;
  };
  return {
    async index(tenantId, doc) {
      try {
        const chunks = chunkText(`${doc.title}\n\n${doc.content}`);
        for (const [i, text] of chunks.entries()) {
          const status = await call(tenantId, 'POST', '/api/v1/memory/remember', { id: chunkId(doc.id, i), text, type: 'SEMANTIC', source: 'DOCUMENT', tags: ['kb', ...doc.tags].slice(0, 50) });
          if (status < 200 || status >= 300) {
            o.logger.warn({ status, docId: doc.id }, 'memory service refused a knowledge-base chunk');
            return false;
          }
        }
        return true;
      } catch (err) {
        o.logger.warn({ err: err instanceof Error ? err.message : String(err), docId: doc.id }, 'memory service unreachable while indexing');
        return false;
      }
    },
    async remove(tenantId, doc) {
      const docId = doc.id;
      const chunks = chunkText(`${doc.title}\n\n${doc.content}`).length;
      for (let i = 0; i < chunks; i++) {
        try {
          await call(tenantId, 'DELETE', `/api/v1/memory/${encodeURIComponent(chunkId(docId, i))}`);
        } catch (err) {
          o.logger.warn({ err: err instanceof Error ? err.message : String(err), docId }, 'memory service unreachable while removing');
          return;
        }
      }
    },
  };
}
