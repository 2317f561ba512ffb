export {
  SENTENCE_CACHE_SIZE,
  type SentenceEncoderOptions,
  SENTENCE_DIMENSION,
  SentenceEncoder,
  SentenceEncoderUnavailableError,
  sharedSentenceEncoder,
} from './sentence-encoder';
export { cosine, normalize } from './vectors';
