export {
  type SentenceEncoderOptions,
  type SentenceModel,
  loadUseLite,
  loadUseLiteFromPackage,
  releaseWeightBuffer,
  SENTENCE_DIMENSION,
  SentenceEncoder,
  SentenceEncoderUnavailableError,
  sharedSentenceEncoder,
} from './sentence-encoder';
export { planBatches } from './batch-plan';
export { cosine, normalize } from './vectors';
