export {
  SENTENCE_CACHE_SIZE,
  SENTENCE_CALL_OVERHEAD,
  SENTENCE_MAX_BATCH,
  type SentenceEncoderOptions,
  SENTENCE_DIMENSION,
  SentenceEncoder,
  SentenceEncoderUnavailableError,
  sharedSentenceEncoder,
} from './sentence-encoder';
export { planBatches } from './batch-plan';
export { cosine, normalize } from './vectors';
