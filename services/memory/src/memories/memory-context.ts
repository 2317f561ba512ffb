import type { Database } from '@care/db';
import type { Config } from '../config';
import type { VectorIndexes } from '../db/vector-index';
import type { EmbeddingProvider } from '../embeddings/embedding-provider';
import type { FusionSettings } from '../recall/fusion';
import type { TermStats } from '../recall/lexical';
import type { LexicalIndex } from '../recall/lexical-index';

/** What the memory services share: storage, the embedding space, the clock and the settings. */
export interface MemoryContext {
  database: Database;
  embeddings: EmbeddingProvider;
  indexes: VectorIndexes;
  clock: () => Date;
  config: Config;
  fusion: FusionSettings;
  /** Cached document frequencies for the lexical score, shared by the services of one process. */
  termStats: TermStats;
  /** The in-process full-text index (embedded database only; absent: recall searches full text in SQL). */
  lexicalIndex?: LexicalIndex;
}
