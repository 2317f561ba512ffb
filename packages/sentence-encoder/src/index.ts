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
export { pageBackedBuffer, pageBackedFloat32Array } from './pages';
export { createSimilarityIndex, type SimilarityIndex } from './similarity-index';
export { cosine, normalize } from './vectors';
