import type { Logger } from '@care/service-kit';

/** Pushes knowledge-base documents into the memory service so agents can recall them. */
export interface MemoryIndexer {
  /** Best effort: true when every chunk was accepted. Never throws. */
  index(tenantId: string, doc: { id: string; title: string; content: string; tags: string[] }): Promise<boolean>;
  /** Best effort removal of the chunks of a document. Never throws. */
  remove(tenantId: string, doc: { id: string; title: string; content: string }): Promise<void>;
  /** The tenant's passages that best answer `query` (the memory service's recall, filtered to `kb`); throws when unreachable. */
  search(tenantId: string, query: string, limit: number): Promise<KbHit[]>;
}

/** Settings of {@link createMemoryIndexer}. */
export interface MemoryIndexerOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  logger: Logger;
  fetchImpl?: typeof fetch;
}

/** Upper bound of one passage's body: a few sentences, what a sentence encoder reads whole (ADR 0107). */
export const PASSAGE_CHARS = 700;

/** One passage of a document, ready to be remembered: the document's title first, then the passage. */
export interface KbPassage {
  index: number;
  text: string;
}

/** Splits text into sentences (a line break also ends one), keeping their punctuation. */
function sentencesOf(paragraph: string): string[] {
  return (paragraph.match(/[^.!?\n]+(?:[.!?]+|$)/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

/** Hard cut of an over-long sentence at word boundaries (code points are never split). */
function cutLong(sentence: string): string[] {
  if (sentence.length <= PASSAGE_CHARS) return [sentence];
  const out: string[] = [];
  let cur = '';
  for (const word of sentence.split(/\s+/)) {
    const piece = [...word].length > PASSAGE_CHARS ? [...word].slice(0, PASSAGE_CHARS).join('') : word;
    if (cur && cur.length + 1 + piece.length > PASSAGE_CHARS) {
      out.push(cur);
      cur = piece;
    } else cur = cur ? `${cur} ${piece}` : piece;
  }
  if (cur) out.push(cur);
  return out;
}

/**
 * Splits a document into passages of whole sentences (at most PASSAGE_CHARS each, a paragraph never merged with
 * the next once the passage is half full), each prefixed with the document's title so a passage names where it
 * comes from and can be cited, and so the encoder sees the title with every passage.
 */
export function chunkDocument(title: string, content: string): KbPassage[] {
  const heading = title.replace(/\s+/g, ' ').trim();
  const bodies: string[] = [];
  let cur = '';
  for (const paragraph of content.split(/\r?\n\s*\r?\n/)) {
    const sentences = sentencesOf(paragraph).flatMap(cutLong);
    for (const sentence of sentences) {
      if (cur && cur.length + 1 + sentence.length > PASSAGE_CHARS) {
        bodies.push(cur);
        cur = sentence;
      } else cur = cur ? `${cur} ${sentence}` : sentence;
    }
    if (cur.length >= PASSAGE_CHARS / 2) {
      bodies.push(cur);
      cur = '';
    }
  }
  if (cur) bodies.push(cur);
  if (!bodies.length) bodies.push('');
  return bodies.map((body, index) => ({ index, text: body ? `${heading}\n\n${body}` : heading }));
}

/** A knowledge-base passage found by a search. */
export interface KbHit {
  documentId: string;
  passage: number;
  title: string;
  text: string;
  score: number;
}

/** Reads a recalled knowledge-base memory back into document id, passage number, title and passage text. */
export function toKbHit(m: { id?: unknown; text?: unknown; score?: unknown }): KbHit | undefined {
  const id = /^kb:([0-9a-f-]{36}):(\d+)$/.exec(String(m.id ?? ''));
  if (!id || typeof m.text !== 'string') return undefined;
  const [title, ...rest] = m.text.split('\n\n');
  return { documentId: id[1], passage: Number(id[2]), title: title.trim(), text: rest.join('\n\n').trim(), score: Number(m.score ?? 0) };
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
        for (const { index: i, text } of chunkDocument(doc.title, doc.content)) {
          const status = await call(tenantId, 'POST', '/api/v1/memory/remember', { id: chunkId(doc.id, i), text, type: 'SEMANTIC', source: 'DOCUMENT', tags: ['kb', ...doc.tags.slice(0, 48), `kbdoc:${doc.id}`] });
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
      const chunks = chunkDocument(doc.title, doc.content).length;
      for (let i = 0; i < chunks; i++) {
        try {
          await call(tenantId, 'DELETE', `/api/v1/memory/${encodeURIComponent(chunkId(docId, i))}`);
        } catch (err) {
          o.logger.warn({ err: err instanceof Error ? err.message : String(err), docId }, 'memory service unreachable while removing');
          return;
        }
      }
    },
    async search(tenantId, query, limit) {
      const res = await f(`${base}/api/v1/memory/recall`, {
        method: 'POST',
        headers: headers(tenantId),
        body: JSON.stringify({ query, topK: limit, filter: { tagsAny: ['kb'] } }),
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      if (!res.ok) {
        await res.arrayBuffer();
        throw new Error(`memory service answered ${res.status}`);
      }
      const body = (await res.json()) as { results?: unknown[] };
      return (Array.isArray(body.results) ? body.results : []).flatMap((m) => toKbHit(m as Record<string, unknown>) ?? []);
    },
  };
}
