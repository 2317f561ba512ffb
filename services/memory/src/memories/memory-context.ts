import type { Database } from '@care/db';
import type { Config } from '../config';
import type { VectorIndexes } from '../db/vector-index';
import type { EmbeddingProvider } from '../embeddings/embedding-provider';
import type { FusionSettings } from '../recall/fusion';

/** What the memory services share: storage, the embedding space, the clock and the settings. */
export interface MemoryContext {
  database: Database;
  embeddings: EmbeddingProvider;
  indexes: VectorIndexes;
  clock: () => Date;
  config: Config;
  fusion: FusionSettings;
}
