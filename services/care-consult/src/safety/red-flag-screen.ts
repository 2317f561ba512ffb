import { sharedSentenceEncoder } from '@care/sentence-encoder';
import { RED_FLAG_ADVICE } from './red-flag-advice';
import { aboutAnimalOnly } from './red-flag-animal';
import { detectRedFlagRule } from './red-flag-detector';
import { planConversation, segmentVectors } from './red-flag-segments';
import { indexExemplars, scoreSegments, shippedSemanticModel, type SemanticModel } from './red-flag-semantic';
import type { RedFlagHit } from './red-flag-types';

/** Turns texts into unit vectors; `@care/sentence-encoder` fits. */
export interface TextEmbedder {
  /** Name of the vector space; a model trained in another space is refused. */
  readonly model?: string;
  warm(): Promise<void>;
  embed(texts: readonly string[]): Promise<number[][]>;
}

/** The semantic stage could not run: the request must not reach a model unscreened. */
export class RedFlagScreenUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the emergency red-flag screen is not available');
    this.name = 'RedFlagScreenUnavailableError';
    Object.defineProperty(this, 'cause', { value: cause });
  }
}

/** Options of {@link RedFlagScreen}. */
export interface RedFlagScreenOptions {
  embedder?: TextEmbedder;
  model?: SemanticModel;
}

/**
 * The two-stage emergency screen run on every chat request before any model call:
 * 1. the deterministic rules ({@link detectRedFlag}) on the latest message and the last earlier user turns;
 * 2. a meaning-based classifier over sentence vectors of the latest message, its sentences, and its join with
 *    the earlier user turns ({@link planConversation}, {@link scoreSegments}). Everything new in the request is
 *    embedded in one batch; earlier turns are cut as they were when they were the latest message, so the
 *    encoder's cache answers them.
 * Either stage can refuse; the classifier can overrule a rule hit only when it is sure the message is not an
 * emergency (`vetoBelow`, tuned on the dev set). The model loads when the screen is built ({@link ready}):
 * at start-up, never on a request. A model trained on another encoder's vectors is refused.
 */
export class RedFlagScreen {
  /** Resolves once the sentence encoder is loaded; rejects if it cannot be (start-up must then fail). */
  readonly ready: Promise<void>;
  private readonly embedder: TextEmbedder;
  private readonly model: SemanticModel;

  constructor(options: RedFlagScreenOptions = {}) {
    this.embedder = options.embedder ?? sharedSentenceEncoder();
    this.model = options.model ?? shippedSemanticModel();
    if (this.model.embedder && this.embedder.model && this.model.embedder !== this.embedder.model)
      throw new Error(
        `the red-flag model was trained on ${this.model.embedder} vectors, not ${this.embedder.model}: retrain it`,
      );
    // The shipped model's exemplars go into the encoder's tensor engine once per process (ADR 0018); a model given
    // by the caller is indexed too but keeps its JavaScript copy.
    const shipped = options.model === undefined;
    this.ready = Promise.all([this.embedder.warm(), indexExemplars(this.model, { release: shipped })]).then(
      () => undefined,
    );
    // Observed here so an unawaited failure is not an unhandled rejection; callers still see it through ready.
    this.ready.catch(() => undefined);
  }

  /** Screens one request. Throws {@link RedFlagScreenUnavailableError} instead of letting it through unscreened. */
  async screen(
    latestUserMessage: string,
    earlierUserMessages: readonly string[] = [],
  ): Promise<RedFlagHit | null> {
    const latest = typeof latestUserMessage === 'string' ? latestUserMessage : '';
    const earlier = Array.isArray(earlierUserMessages)
      ? earlierUserMessages.filter((m): m is string => typeof m === 'string')
      : [];
    // A conversation about an animal and no person needs a vet, not the emergency advice for people (ADR 0428).
    if (aboutAnimalOnly(latest, earlier)) return null;
    const plan = planConversation(latest, earlier);
    // A follow-up that says the earlier scare is over is screened on its own words: the rules read the latest message
    // alone, and the semantic stage refuses only on suicidal intent or self-harm (ADR 0428).
    const resolved = plan.segments.some((s) => s.resolved);
    const ruled = detectRedFlagRule(latest, resolved ? [] : earlier);
    const rule = ruled?.hit ?? null;
    // A firm sign (no breathing, an overdose amount) stands whatever the semantic stage says (ADR 0419).
    if (ruled?.firm) return rule;
    if (plan.segments.length === 0) return rule;
    let vectors: number[][];
    try {
      await this.ready;
      vectors = await this.embedder.embed(plan.texts);
      if (vectors.length !== plan.texts.length)
        throw new Error('the encoder answered a different number of vectors');
    } catch (err) {
      throw new RedFlagScreenUnavailableError(err);
    }
    const segmentVecs = segmentVectors(plan, vectors, this.model.dimension);
    const { verdict, highest } = scoreSegments(this.model, plan.segments, segmentVecs);
    if (rule && highest >= this.model.vetoBelow) return rule;
    if (!verdict) return null;
    return {
      category: verdict.category,
      reason: 'emergency_red_flag',
      message: RED_FLAG_ADVICE[verdict.category],
      matched: `semantic ${verdict.category} p=${verdict.probability.toFixed(2)}`,
    };
  }
}
