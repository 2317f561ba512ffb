// Public surface of the safety circuit breaker: the detector, its types, and the labelled-set scoring
// used by the tests and bench/red-flags.
export { detectRedFlag, detectRedFlagRule } from './red-flag-detector';
export { RED_FLAG_ADVICE } from './red-flag-advice';
export {
  RedFlagScreen,
  RedFlagScreenUnavailableError,
  type RedFlagScreenOptions,
  type TextEmbedder,
} from './red-flag-screen';
export {
  SEMANTIC_CLASSES,
  classProbabilities,
  indexExemplars,
  type ExemplarIndex,
  scoreSegments,
  loadSemanticModel,
  shippedSemanticModel,
  type SemanticModel,
} from './red-flag-semantic';
export { resolvesEarlierScare } from './red-flag-resolution';
export { asksWhatToDoNow } from './red-flag-asks-now';
export {
  messageTexts,
  planConversation,
  segmentVectors,
  splitSentences,
  type ConversationPlan,
  type Segment,
} from './red-flag-segments';
export {
  RED_FLAG_CATEGORIES,
  isRedFlagCategory,
  type RedFlagCategory,
  type RedFlagHit,
} from './red-flag-types';
export {
  ORDINARY_FILE,
  RED_FLAG_DATA_DIR,
  SEMANTIC_TRAINING_FILES,
  formatQualityTable,
  loadLabelledFile,
  parseLabelledJsonl,
  scoreDetector,
  type CategoryScore,
  type LabelledCase,
  type QualityReport,
} from './red-flag-metrics';
export { aboutAnimalOnly } from './red-flag-animal';
