import type { Logger } from '@care/service-kit';
import type { ChatAgent, ChatCatalog } from './chat-catalog';
import {
  type LearnedScorer,
  learnedScorer,
  loadRoutingModel,
  type RoutingModel,
  wordBag,
} from './routing/learned';
import { LexicalIndex, queryTerms, stems } from './routing/lexical';

/** What routing needs from a sentence encoder (`@care/sentence-encoder`'s SentenceEncoder fits): unit vectors. */
export interface RoutingEncoder {
  embed(texts: readonly string[]): Promise<number[][]>;
  /** The encoder's model name; the learned share applies only to the encoder it was trained on. */
  readonly model?: string;
}

/** Which agent the router chose, how sure it was, and what it would ask when unsure. */
export interface RouteDecision {
  agent: ChatAgent;
  /** `meaning`: the best-scoring specialist; `fallback`: below the confidence floor, the generalist answers. */
  via: 'meaning' | 'fallback';
  /**
   * Combined score of the chosen specialist (cosine of meaning plus the lexical share), about 0 to 1.3; the
   * learned share that helped choose it is not included, so the floor means what it did before ADR 0417.
   */
  confidence: number;
  /** The next best specialists (at most two), best first. */
  alternatives: ChatAgent[];
  /** Below the floor: a short question that asks the person which of the closest specialists they need. */
  clarify?: string;
}

/** Tunables of {@link AgentRouter} (defaults chosen on the development routing set, ADR 0415). */
export interface RouterSettings {
  /** Below this combined score the generalist answers and a clarifying suggestion is offered. */
  floor: number;
  /**
   * A message with fewer than `shortWords` content words ("hello", "baby", "I have a question") needs this much
   * meaning similarity to route; one word says too little to choose between close specialists.
   */
  shortFloor: number;
  shortWords: number;
  /** Weight of the lexical share (BM25 relative to the best agent, scaled by how strong the best match is). */
  lexicalWeight: number;
  /** BM25 score at which the lexical side counts fully; weaker matches count proportionally less. */
  lexicalSaturation: number;
  /** Without `allow_clinical`, a non-clinical specialist this close to a clinical best one is preferred. */
  clinicalMargin: number;
  /** An agent's meaning score is the mean of its best `semanticTopK` text similarities ... */
  semanticTopK: number;
  /** ... mixed with the similarity to the unit mean of all its texts (its centre) at this weight. */
  centreWeight: number;
  /** Weights of the latest user message and the ones before it (latest first). */
  turnWeights: readonly number[];
  /**
   * The learned share (ADR 0417): a classifier over the message's vector and words whose agent probability, times
   * the model's weight, is added to the combined score when choosing. Defaults to the shipped model; null: off.
   */
  model: RoutingModel | null;
}

const DEFAULT_ROUTER_SETTINGS: Omit<RouterSettings, 'model'> = {
  floor: 0.5,
  shortFloor: 0.7,
  shortWords: 2,
  lexicalWeight: 0.25,
  lexicalSaturation: 6,
  clinicalMargin: 0.015,
  semanticTopK: 1,
  centreWeight: 0.3,
  turnWeights: [1, 0.5, 0.25],
};

let shippedModel: RoutingModel | undefined;
/** The shipped routing model, read once per process. */
function shippedRoutingModel(): RoutingModel {
  return (shippedModel ??= loadRoutingModel());
}

// Category segments of generalist agents, the safe choice when the question gives too little to go on.
const GENERALIST = ['care-coordination', 'general', 'health-literacy'];
const MESSAGE_CACHE = 512;
// Agent-text vectors per encoder, shared by every router of the process (an app per test, replicas in one
// process): a text is embedded once however many routers describe agents with it.
const textVectors = new WeakMap<RoutingEncoder, Map<string, Float32Array>>();

/** Every active agent's scores for a message, in catalog order (see {@link AgentRouter.scores}). */
export interface AgentScores {
  agents: readonly ChatAgent[];
  /** Meaning score per agent (best text mixed with the centre); absent when routing is lexical only. */
  meaning?: Float64Array;
  /** Lexical share per agent. */
  lexical: Float64Array;
  /** The learned model's probability per agent, when it applies (ADR 0417). */
  learned?: Float64Array;
  /** The unit vector of the recent messages, when routing by meaning. */
  query?: Float32Array;
  /** Distinct content words of the messages (a short message needs more meaning to route). */
  contentWords: number;
}

interface Profile {
  agent: ChatAgent;
  /** Texts that describe the agent by meaning: name and description, its scope, tags, then each example request. */
  texts: string[];
}

interface State {
  agents: readonly ChatAgent[];
  profiles: Profile[];
  lexical: LexicalIndex;
  /** The learned share over this catalog's agents, when the model fits the encoder. */
  learned?: LearnedScorer;
  /** Resolves when every profile text has a vector (or the encoder failed). */
  embedded: Promise<void>;
}

/** The persona's first section (what the agent does: "What you do", "How you work", "Scope", ...), plain text. */
export function agentScope(persona: string): string {
  const m = /^## .*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(persona);
  return (m?.[1] ?? '')
    .replace(/^\s*[-*]\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 800);
}

/** The texts that describe an agent by meaning. */
export function agentProfileTexts(agent: ChatAgent): string[] {
  const texts = [`${agent.name}: ${agent.description}`];
  const scope = agentScope(agent.persona);
  if (scope) texts.push(scope);
  if (agent.tags?.length) texts.push(agent.tags.map((t) => t.replace(/-/g, ' ')).join(', '));
  for (const e of agent.examples ?? []) texts.push(e);
  return texts;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * Picks a specialist when the request names none, by meaning: the sentence encoder's vector of the recent user
 * messages against each agent's description, scope (the persona's first section), keywords and example requests (best match per agent), plus a
 * lexical share (BM25 over stemmed words with everyday phrases expanded), plus, when choosing among specialists, a
 * learned share (a classifier over the message's vector and words trained on labelled requests, ADR 0417; it
 * applies only to the encoder it was trained on). Below a confidence floor (read without the learned share) the
 * generalist answers and a clarifying question names the closest specialists. Without `allow_clinical`, a
 * non-clinical specialist within a narrow margin of a clinical best one is preferred (a tie-break only: the
 * clinical flag gates an agent's clinical references, not whether it may answer). Emergencies never reach here.
 *
 * Agent vectors are computed once per catalog version (on {@link ready} at start-up, again in the background
 * after a workspace reload); a request embeds only its own messages, remembered in a small cache so earlier turns
 * are not embedded again. Without an encoder (or when it cannot load) routing is lexical only.
 */
export class AgentRouter {
  readonly settings: RouterSettings;
  private state?: State;
  private readonly vectors: Map<string, Float32Array>;
  private readonly messages = new Map<string, Float32Array>();
  private encoderFailed = false;

  constructor(
    private readonly catalog: Pick<ChatCatalog, 'activeAgents'>,
    private readonly encoder: RoutingEncoder | undefined,
    private readonly logger?: Pick<Logger, 'warn'>,
    settings: Partial<RouterSettings> = {},
  ) {
    this.settings = {
      ...DEFAULT_ROUTER_SETTINGS,
      model: 'model' in settings ? null : shippedRoutingModel(),
      ...settings,
    };
    let shared = encoder && textVectors.get(encoder);
    if (encoder && !shared) textVectors.set(encoder, (shared = new Map()));
    this.vectors = shared ?? new Map();
  }

  /** True when routing uses the sentence encoder (false without one or after it failed to load). */
  get semantic(): boolean {
    return !!this.encoder && !this.encoderFailed;
  }

  /** How many distinct agent texts the current catalog is described by (for logs and the benchmark). */
  get profileTextCount(): number {
    return new Set(this.current().profiles.flatMap((p) => p.texts)).size;
  }

  /** Forgets the remembered message vectors (benchmarks measure a first turn with it). */
  clearMessageCache(): void {
    this.messages.clear();
  }

  /** Loads the model and embeds every agent's profile; call at start-up so no request pays for it. */
  async ready(): Promise<void> {
    await this.current().embedded;
  }

  /**
   * Routes the recent user messages (oldest first, the latest last). Undefined when no agent is active.
   */
  async route(
    recentUserMessages: readonly string[],
    allowClinical: boolean,
  ): Promise<RouteDecision | undefined> {
    const scores = await this.scores(recentUserMessages);
    return scores && this.decideOn(scores, allowClinical);
  }

  /**
   * Every active agent's scores for the recent user messages (oldest first), what {@link route} decides on.
   * Undefined when no agent is active.
   */
  async scores(recentUserMessages: readonly string[]): Promise<AgentScores | undefined> {
    const state = this.current();
    if (!state.agents.length) return undefined;
    const turns = recentUserMessages
      .slice(-this.settings.turnWeights.length)
      .reverse()
      .map((text, i) => ({ text: text.trim().slice(-2000), weight: this.settings.turnWeights[i] }))
      .filter((t) => t.text.trim());
    const semantic = await this.semanticScores(state, turns);
    // Each turn's words, found once for the lexical side and the learned share.
    const terms = turns.map((t) => ({ terms: queryTerms(t.text), weight: t.weight }));
    return {
      agents: state.agents,
      meaning: semantic?.scores,
      lexical: this.lexicalScores(state, terms),
      learned: semantic && state.learned?.probabilities(semantic.query, wordBag(terms)),
      query: semantic?.query,
      contentWords: new Set(turns.flatMap((t) => stems(t.text))).size,
    };
  }

  /**
   * The decision on given scores. `learned` and `share` default to the scores' learned probabilities and the
   * model's weight; the trainer (`bench/routing/train-router.mjs`) passes its own to measure a candidate model.
   */
  decideOn(
    scores: AgentScores,
    allowClinical: boolean,
    learned: ArrayLike<number> | undefined = scores.learned,
    share: number = this.settings.model?.weight ?? 0,
  ): RouteDecision {
    const scored = scores.agents
      .map((agent, i) => {
        const meaning = scores.meaning?.[i] ?? 0;
        const base = meaning + scores.lexical[i];
        return { agent, base, meaning, score: base + (learned ? share * learned[i] : 0) };
      })
      .sort((a, b) => b.score - a.score || (a.agent.id < b.agent.id ? -1 : 1));
    return this.decide(scores.agents, scored, allowClinical, !!scores.meaning, scores.contentWords);
  }

  private decide(
    agents: readonly ChatAgent[],
    scored: Array<{ agent: ChatAgent; base: number; score: number; meaning: number }>,
    allowClinical: boolean,
    semantic: boolean,
    contentWords: number,
  ): RouteDecision {
    let best = scored[0];
    if (best.agent.clinical && !allowClinical) {
      const plain = scored.find((s) => !s.agent.clinical);
      if (plain && best.score - plain.score <= this.settings.clinicalMargin) best = plain;
    }
    const alternatives = scored
      .filter((s) => s !== best)
      .slice(0, 2)
      .map((s) => s.agent);
    // Lexical-only routing (no encoder) has no cosine part: any word match with enough words to go on.
    // The floor reads the combined score without the learned share: the classifier helps choose among
    // specialists, never decides on its own that a message is topical enough for one.
    const confident = semantic
      ? best.base >= this.settings.floor &&
        (contentWords >= this.settings.shortWords || best.meaning >= this.settings.shortFloor)
      : best.base > 0 && contentWords >= this.settings.shortWords;
    if (confident) return { agent: best.agent, via: 'meaning', confidence: best.base, alternatives };
    const generalist = generalistOf(agents) ?? best.agent;
    const closest = [best.agent, ...alternatives].filter((a) => a !== generalist).slice(0, 2);
    return {
      agent: generalist,
      via: 'fallback',
      confidence: best.base,
      alternatives: closest,
      // Too little meaning to name anyone: ask openly; a short but topical message (some specialist's combined
      // score reaches the floor) names the two closest by the fused score. With a large learned share the fused
      // top may be an agent the words alone barely reach, so topical reads every agent, not just the top one.
      clarify: clarifyingQuestion(scored.some((s) => s.base >= this.settings.floor) ? closest : []),
    };
  }

  private lexicalScores(
    state: State,
    turns: ReadonlyArray<{ terms: ReadonlyMap<string, number>; weight: number }>,
  ): Float64Array {
    const raw = new Float64Array(state.profiles.length);
    for (const t of turns) state.lexical.scoreTerms(t.terms, t.weight, raw);
    let max = 0;
    for (const v of raw) max = Math.max(max, v);
    if (max <= 0) return raw;
    const strength = Math.min(1, max / this.settings.lexicalSaturation);
    for (let i = 0; i < raw.length; i++) raw[i] = this.settings.lexicalWeight * strength * (raw[i] / max);
    return raw;
  }

  private async semanticScores(
    state: State,
    turns: Array<{ text: string; weight: number }>,
  ): Promise<{ scores: Float64Array; query: Float32Array } | undefined> {
    if (!this.semantic || !turns.length) return undefined;
    await state.embedded;
    const vecs = await this.embedMessages(turns.map((t) => t.text));
    if (!vecs) return undefined;
    const q = new Float32Array(vecs[0].length);
    turns.forEach((t, i) => {
      for (let d = 0; d < q.length; d++) q[d] += t.weight * vecs[i][d];
    });
    let norm = 0;
    for (let d = 0; d < q.length; d++) norm += q[d] * q[d];
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < q.length; d++) q[d] /= norm;
    const out = new Float64Array(state.profiles.length);
    const k = Math.max(1, this.settings.semanticTopK);
    state.profiles.forEach((p, i) => {
      const { matrix, count } = this.packed(p);
      const dim = q.length;
      let best = -Infinity;
      const sims: number[] = [];
      for (let t = 0; t < count; t++) {
        let sim = 0;
        for (let d = 0, base = t * dim; d < dim; d++) sim += q[d] * matrix[base + d];
        if (k === 1) best = Math.max(best, sim);
        else sims.push(sim);
      }
      if (k === 1) out[i] = count ? best : 0;
      else {
        const top = sims.sort((a, b) => b - a).slice(0, k);
        out[i] = top.length ? top.reduce((a, b) => a + b, 0) / top.length : 0;
      }
      const w = this.settings.centreWeight;
      const centre = w ? this.centre(p) : undefined;
      if (centre) out[i] = (1 - w) * out[i] + w * dot(q, centre);
    });
    return { scores: out, query: q };
  }

  private readonly centres = new WeakMap<Profile, Float32Array>();
  private readonly matrices = new WeakMap<Profile, { matrix: Float32Array; count: number }>();

  /** An agent's text vectors in one array, row after row (read once per route without map look-ups). */
  private packed(p: Profile): { matrix: Float32Array; count: number } {
    let m = this.matrices.get(p);
    if (m) return m;
    const rows = p.texts.map((t) => this.vectors.get(t)).filter((v): v is Float32Array => !!v);
    const dim = rows[0]?.length ?? 0;
    m = { matrix: new Float32Array(rows.length * dim), count: rows.length };
    rows.forEach((v, r) => m!.matrix.set(v, r * dim));
    this.matrices.set(p, m);
    return m;
  }

  /** Unit mean of an agent's text vectors: where its requests sit as a whole, less swayed by one odd example. */
  private centre(p: Profile): Float32Array | undefined {
    let c = this.centres.get(p);
    if (c) return c;
    for (const text of p.texts) {
      const v = this.vectors.get(text);
      if (!v) continue;
      c ??= new Float32Array(v.length);
      for (let d = 0; d < v.length; d++) c[d] += v[d];
    }
    if (!c) return undefined;
    const norm = Math.hypot(...c) || 1;
    for (let d = 0; d < c.length; d++) c[d] /= norm;
    this.centres.set(p, c);
    return c;
  }

  private async embedMessages(texts: string[]): Promise<Float32Array[] | undefined> {
    const missing = [...new Set(texts.filter((t) => !this.messages.has(t)))];
    if (missing.length) {
      let vectors: number[][];
      try {
        vectors = await this.encoder!.embed(missing);
      } catch (err) {
        this.encoderFailed = true;
        this.logger?.warn(
          { err },
          'routing: the sentence encoder failed; routing is lexical only from now on',
        );
        return undefined;
      }
      missing.forEach((t, i) => {
        if (this.messages.size >= MESSAGE_CACHE) this.messages.delete(this.messages.keys().next().value!);
        this.messages.set(t, Float32Array.from(vectors[i]));
      });
    }
    return texts.map((t) => {
      const v = this.messages.get(t)!;
      // Most recently used last, so the oldest entry is evicted first.
      this.messages.delete(t);
      this.messages.set(t, v);
      return v;
    });
  }

  private current(): State {
    const agents = this.catalog.activeAgents();
    if (this.state && this.state.agents === agents) return this.state;
    const profiles = agents.map((agent) => ({ agent, texts: agentProfileTexts(agent) }));
    const lexical = new LexicalIndex(
      agents.map((a) => ({
        id: a.id,
        fields: [
          { text: a.name, boost: 2 },
          { text: (a.tags ?? []).join(' ').replace(/-/g, ' '), boost: 2 },
          { text: a.category.split('.').slice(1).join(' ').replace(/-/g, ' '), boost: 1.5 },
          { text: a.description, boost: 1 },
          { text: (a.examples ?? []).join('\n'), boost: 1 },
        ],
      })),
    );
    const model = this.settings.model;
    // An agent the model was not trained on would get no share while the others do, so it could hardly win: the
    // share is then off for the whole catalog until the model is retrained (bench/routing/train-router.mjs).
    const unknown = model ? agents.filter((a) => !model.agents.includes(a.id)).map((a) => a.id) : [];
    if (model && unknown.length)
      this.logger?.warn(
        { agents: unknown.slice(0, 5), count: unknown.length },
        'routing: the learned share is off because the routing model was not trained on every active agent; retrain it',
      );
    const learned =
      model && !unknown.length && this.encoder?.model === model.embedder
        ? learnedScorer(
            model,
            agents.map((a) => a.id),
          )
        : undefined;
    const state: State = { agents, profiles, lexical, learned, embedded: Promise.resolve() };
    state.embedded = this.embedProfiles(profiles);
    this.state = state;
    return state;
  }

  private async embedProfiles(profiles: Profile[]): Promise<void> {
    if (!this.semantic) return;
    // Shortest first: the encoder pads a batch to its longest text, so batches of like lengths cost about a
    // third of the CPU of catalog order (a scope text of 800 characters no longer pads 63 short examples).
    const missing = [...new Set(profiles.flatMap((p) => p.texts))]
      .filter((t) => !this.vectors.has(t))
      .sort((a, b) => a.length - b.length);
    try {
      for (let i = 0; i < missing.length; i += 64) {
        const batch = missing.slice(i, i + 64);
        const vectors = await this.encoder!.embed(batch);
        batch.forEach((t, j) => this.vectors.set(t, Float32Array.from(vectors[j])));
      }
    } catch (err) {
      this.encoderFailed = true;
      this.logger?.warn({ err }, 'routing: the sentence encoder could not load; routing is lexical only');
    }
  }
}

function generalistOf(agents: readonly ChatAgent[]): ChatAgent | undefined {
  const nav = agents.filter((a) => a.domain === 'navigation');
  for (const segment of GENERALIST) {
    const hit = nav.find((a) => a.category.split('.')[1] === segment && a.category.split('.').length === 2);
    if (hit) return hit;
  }
  return nav.sort((a, b) => a.category.split('.').length - b.category.split('.').length)[0] ?? agents[0];
}

function clarifyingQuestion(closest: ChatAgent[]): string {
  if (!closest.length) return 'Could you tell me a little more about what you need help with?';
  const names = closest.map((a) => a.name);
  return names.length === 1
    ? `Is this something for our ${names[0]}?`
    : `Is this for our ${names[0]} or ${names[1]}? Tell me a bit more.`;
}
