import { MemoryCallError, type MemoryClient } from '@care/clients';
import type { RememberBatchRequest } from '@care/contracts';
import { candidatesFor, rankDocuments } from '@care/passage-rank';
import type { Logger } from '@care/service-kit';

/** Dependencies of {@link MemoryIndexer}: the memory service's client (its timeout bounds searches and removals). */
interface MemoryIndexerDeps {
  memory: MemoryClient;
  logger: Logger;
}

/** Upper bound of one passage's body: a few sentences, what a sentence encoder reads whole (ADR 0107). */
const PASSAGE_CHARS = 700;

/** One passage of a document, ready to be remembered: the document's title first, then the passage. */
interface KbPassage {
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

/** A knowledge-base passage's memory id: `kb:<document id>:<passage number>`. */
const KB_PASSAGE_ID = /^kb:([0-9a-f-]{36}):(\d+)$/;

/** Reads a recalled knowledge-base memory back into document id, passage number, title and passage text. */
function toKbHit(m: { id?: unknown; text?: unknown; score?: unknown }): KbHit | undefined {
  const id = KB_PASSAGE_ID.exec(String(m.id ?? ''));
  if (!id || typeof m.text !== 'string') return undefined;
  const [title, ...rest] = m.text.split('\n\n');
  return {
    documentId: id[1],
    passage: Number(id[2]),
    title: title.trim(),
    text: rest.join('\n\n').trim(),
    score: Number(m.score ?? 0),
  };
}

const chunkId = (docId: string, i: number) => `kb:${docId}:${i}`;

/** Passages per batch remember call (the memory service takes up to 64; ADR 0109). */
const INDEX_BATCH = 16;

/** Settings of the indexer's writes (ADR 0109); defaults are what production uses. */
interface IndexWriteOptions {
  /** Timeout of one write call (a batch embeds up to INDEX_BATCH passages, slower than a recall). */
  writeTimeoutMs: number;
  /** Attempts of one write call that timed out, failed to connect or got 429/5xx. */
  attempts: number;
  /** Delay before the second attempt; doubled each time, with jitter. */
  backoffMs: number;
  /** Write calls in flight to the memory service at once; further documents wait their turn (no timeout while waiting). */
  concurrency: number;
}

/** Default write settings. */
const INDEX_WRITE_DEFAULTS: IndexWriteOptions = {
  writeTimeoutMs: 30_000,
  attempts: 4,
  backoffMs: 500,
  concurrency: 2,
};

/** A FIFO limit on concurrent tasks: a timeout starts when a call is sent, not while it queues behind others. */
function limiter(max: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** Whether another attempt may succeed: timeouts, connection failures, 429 and 5xx; a 4xx refusal will not change. */
const retryable = (outcome: number | Error) =>
  outcome instanceof Error ? true : outcome === 429 || outcome >= 500;

/**
 * What a write came to: the status the memory service answered (any 2xx counts as stored, whatever its body), or
 * the error when it gave no answer (timeout, no connection).
 */
async function statusOf(write: () => Promise<unknown>): Promise<number | Error> {
  try {
    await write();
    return 200;
  } catch (err) {
    if (err instanceof MemoryCallError && err.status !== undefined) return err.status;
    return err instanceof Error ? err : new Error(String(err));
  }
}

type IndexItem = RememberBatchRequest['items'][number];

/**
 * Pushes knowledge-base documents into the memory service so agents can recall them, and searches them there.
 * Indexes through the memory service's batch remember (`POST /api/v1/memory/remember/batch`, ADR 0109), which
 * embeds the passages itself in one model call; a memory service without it (404/405) gets one `remember` per
 * passage. `POST /api/v1/memory` would need a vector this service cannot compute. The tenant is the memory
 * partition (`X-Tenant-Id`). Writes are retried with backoff and limited in number, so a burst of uploads queues
 * here instead of timing out there; a document whose passages cannot all be stored is removed again and FAILED.
 */
export class MemoryIndexer {
  private readonly w: IndexWriteOptions;
  private readonly slot: ReturnType<typeof limiter>;
  private batchMissing = false;

  constructor(private readonly d: MemoryIndexerDeps & Partial<IndexWriteOptions>) {
    this.w = {
      writeTimeoutMs: d.writeTimeoutMs ?? INDEX_WRITE_DEFAULTS.writeTimeoutMs,
      attempts: d.attempts ?? INDEX_WRITE_DEFAULTS.attempts,
      backoffMs: d.backoffMs ?? INDEX_WRITE_DEFAULTS.backoffMs,
      concurrency: d.concurrency ?? INDEX_WRITE_DEFAULTS.concurrency,
    };
    this.slot = limiter(this.w.concurrency);
  }

  /** Best effort: true when every chunk was accepted. Never throws. */
  async index(
    tenantId: string,
    doc: { id: string; title: string; content: string; tags: string[] },
  ): Promise<boolean> {
    const tags = ['kb', ...doc.tags.slice(0, 48), `kbdoc:${doc.id}`];
    const items = chunkDocument(doc.title, doc.content).map(({ index: i, text }): IndexItem => ({
      id: chunkId(doc.id, i),
      text,
      type: 'SEMANTIC',
      source: 'DOCUMENT',
      tags,
    }));
    for (let i = 0; i < items.length; i += INDEX_BATCH) {
      const outcome = await this.store(tenantId, items.slice(i, i + INDEX_BATCH));
      if (outcome instanceof Error || outcome >= 300) {
        this.d.logger.warn(
          {
            docId: doc.id,
            ...(outcome instanceof Error ? { err: outcome.message } : { status: outcome }),
            attempts: this.w.attempts,
          },
          'memory service did not store a knowledge-base document; it is FAILED',
        );
        // Passages stored by earlier batches would make a FAILED document half-recallable.
        if (i > 0) await this.removeAll(tenantId, doc.id, i);
        return false;
      }
    }
    return true;
  }

  /** Best effort removal of the chunks of a document. Never throws. */
  async remove(tenantId: string, doc: { id: string; title: string; content: string }): Promise<void> {
    await this.removeAll(tenantId, doc.id, chunkDocument(doc.title, doc.content).length);
  }

  /** The tenant's passages that best answer `query` (the memory service's recall, filtered to `kb`, re-ranked); throws when unreachable. */
  async search(tenantId: string, query: string, limit: number): Promise<KbHit[]> {
    const results = await this.d.memory.recall(tenantId, {
      query,
      topK: candidatesFor(limit),
      filter: { tagsAny: ['kb'] },
    });
    // Re-ranked by the title's match to the question (ADR 0422) and the support of its subject among the recalled
    // passages, then one passage per document, the best (ADR 0435): a result list of documents, not of chunks.
    const recalled = results.filter((m) => typeof (m as { text?: unknown }).text === 'string');
    return rankDocuments(query, recalled, (m) => KB_PASSAGE_ID.exec(String(m.id ?? ''))?.[1])
      .flatMap((m) => toKbHit({ ...m, score: Math.round(m.rank * 1e4) / 1e4 }) ?? [])
      .slice(0, limit);
  }

  /** One write with retries: the final status, or the last error when no attempt got an answer. */
  private async write(path: string, send: () => Promise<unknown>): Promise<number | Error> {
    const w = this.w;
    let outcome: number | Error = new Error('not attempted');
    for (let attempt = 1; attempt <= w.attempts; attempt++) {
      outcome = await this.slot(() => statusOf(send));
      if (!(outcome instanceof Error) && outcome < 300) return outcome;
      if (attempt === w.attempts || !retryable(outcome)) break;
      this.d.logger.info(
        { attempt, outcome: outcome instanceof Error ? outcome.message : outcome, path },
        'retrying a knowledge-base write to the memory service',
      );
      await new Promise((r) => setTimeout(r, w.backoffMs * 2 ** (attempt - 1) * (0.75 + Math.random() / 2)));
    }
    return outcome;
  }

  /** Stores the passages; 200 when every one is stored. A retried single remember answering 409 was stored by an earlier attempt. */
  private async store(tenantId: string, items: IndexItem[]): Promise<number | Error> {
    const { memory } = this.d;
    const timeoutMs = this.w.writeTimeoutMs;
    if (!this.batchMissing) {
      const outcome = await this.write('/api/v1/memory/remember/batch', () =>
        memory.rememberBatch(tenantId, { items }, { timeoutMs }),
      );
      if (outcome !== 404 && outcome !== 405) return outcome;
      this.batchMissing = true;
    }
    for (const item of items) {
      const outcome = await this.write('/api/v1/memory/remember', () =>
        memory.remember(tenantId, item, { timeoutMs }),
      );
      if (outcome instanceof Error || (outcome >= 300 && outcome !== 409)) return outcome;
    }
    return 200;
  }

  /** Forgets the document's first `chunks` passages; an answer other than 2xx is ignored, no answer ends the removal. */
  private async removeAll(tenantId: string, docId: string, chunks: number): Promise<void> {
    for (let i = 0; i < chunks; i++) {
      const outcome = await statusOf(() => this.d.memory.forget(tenantId, chunkId(docId, i)));
      if (outcome instanceof Error) {
        this.d.logger.warn({ err: outcome.message, docId }, 'memory service unreachable while removing');
        return;
      }
    }
  }
}
