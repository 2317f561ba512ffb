import { RED_FLAG_ADVICE } from './red-flag-advice';
import { suppression } from './red-flag-context';
import type { CueSpec } from './red-flag-cue';
import { normalizeMessage, type Clause, type NormalizedMessage } from './red-flag-normalize';
import { CATEGORY_PRIORITY, CATEGORY_RULES } from './red-flag-rules';
import type { RedFlagCategory, RedFlagHit } from './red-flag-types';
import { ANAPHYLAXIS_CUES, BREATHING_CUES } from './cues/breathing-anaphylaxis.cues';
import { BLEEDING_CUES, PREGNANCY_CUES } from './cues/bleeding-pregnancy.cues';
import { CHILD_CUES, UNRESPONSIVE_CUES } from './cues/child-unresponsive.cues';
import { MENINGITIS_CUES, SEPSIS_CUES } from './cues/meningitis-sepsis.cues';
import { OVERDOSE_CUES } from './cues/overdose.cues';
import { SEIZURE_CUES, SHARED_SIGN_CUES } from './cues/signs-seizure.cues';
import { STROKE_CUES, HEART_CUES } from './cues/stroke-heart.cues';
import { SELF_HARM_CUES, SUICIDE_CUES } from './cues/suicide-self-harm.cues';

/** Every cue the detector knows, in a stable order. */
export const ALL_CUES: readonly CueSpec[] = [
  ...STROKE_CUES,
  ...HEART_CUES,
  ...BREATHING_CUES,
  ...ANAPHYLAXIS_CUES,
  ...SHARED_SIGN_CUES,
  ...SEIZURE_CUES,
  ...MENINGITIS_CUES,
  ...SEPSIS_CUES,
  ...SUICIDE_CUES,
  ...SELF_HARM_CUES,
  ...OVERDOSE_CUES,
  ...BLEEDING_CUES,
  ...PREGNANCY_CUES,
  ...CHILD_CUES,
  ...UNRESPONSIVE_CUES,
];

// How many earlier user turns may complete a cue split across messages.
const CONTEXT_TURNS = 3;
const MAX_MATCHED_CHARS = 80;
const NUMBER_WORDS = /^[a-z]/;

const COMPILED = ALL_CUES.map((spec) => ({ spec, re: new RegExp(`\\b(?:${spec.re})\\b`, 'g') }));

/** Stem index: a token (or its 5-letter prefix) -> the cues worth running when it occurs. */
function stemKey(stem: string): string {
  return stem.length >= 5 ? stem.slice(0, 5) : stem;
}
const STEM_INDEX = new Map<string, number[]>();
COMPILED.forEach(({ spec }, index) => {
  for (const stem of spec.stems) {
    const key = stemKey(stem);
    const list = STEM_INDEX.get(key) ?? [];
    if (!list.includes(index)) list.push(index);
    STEM_INDEX.set(key, list);
  }
});

function candidateCues(tokens: readonly string[]): number[] {
  const found = new Set<number>();
  const add = (key: string): void => {
    const list = STEM_INDEX.get(key);
    if (list) for (const i of list) found.add(i);
  };
  for (const token of tokens) {
    add(token);
    if (token.length > 5) add(token.slice(0, 5));
    if (token.charCodeAt(0) <= 57) add('#num');
  }
  return [...found].sort((a, b) => a - b);
}

// Binary search: long pastes have hundreds of clauses and a cue may match in many of them.
function clauseAt(norm: NormalizedMessage, index: number): Clause | undefined {
  const clauses = norm.clauses;
  let lo = 0;
  let hi = clauses.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = clauses[mid]!;
    if (index < c.start) hi = mid - 1;
    else if (index >= c.end) lo = mid + 1;
    else return c;
  }
  return undefined;
}

function withinBounds(spec: CueSpec, match: RegExpExecArray): boolean {
  if (spec.min === undefined && spec.max === undefined) return true;
  const raw = match.slice(1).find((g) => g !== undefined);
  if (raw === undefined || NUMBER_WORDS.test(raw)) return spec.max === undefined;
  const n = Number(raw);
  return n >= (spec.min ?? -Infinity) && n <= (spec.max ?? Infinity);
}

interface FeatureHit {
  match: string;
  latest: boolean;
  firm: boolean;
}

function collectFeatures(norm: NormalizedMessage, latest: boolean, into: Map<string, FeatureHit>): void {
  for (const index of candidateCues(norm.tokens)) {
    const { spec, re } = COMPILED[index]!;
    const known = into.get(spec.id);
    if (known && (known.latest || !latest)) continue;
    re.lastIndex = 0;
    for (let m = re.exec(norm.text); m !== null; m = re.exec(norm.text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      const clause = clauseAt(norm, m.index);
      if (!clause || !withinBounds(spec, m)) continue;
      if (spec.unless) {
        const sentence = norm.sentences[clause.sentence]!;
        if (spec.unless.test(norm.text.slice(sentence.start, sentence.end))) continue;
      }
      if (suppression({ norm, clause, start: m.index, end: m.index + m[0].length }, spec) !== null) continue;
      into.set(spec.id, { match: m[0], latest, firm: spec.firm === true });
      break;
    }
  }
}

function firedCategories(
  features: Map<string, FeatureHit>,
): Map<RedFlagCategory, { matched: string; firm: boolean }> {
  const fired = new Map<RedFlagCategory, { matched: string; firm: boolean }>();
  for (const rule of CATEGORY_RULES) {
    if (fired.has(rule.category) || !rule.all[0]!.some((id) => features.has(id))) continue;
    const used: FeatureHit[] = [];
    for (const group of rule.all) {
      let pick: FeatureHit | undefined;
      for (const id of group) {
        const hit = features.get(id);
        if (hit && (!pick || (hit.latest && !pick.latest))) pick = hit;
      }
      if (!pick) break;
      used.push(pick);
    }
    if (used.length === rule.all.length && used.some((h) => h.latest)) {
      fired.set(rule.category, {
        matched: [...new Set(used.map((h) => h.match))].join(' + ').slice(0, MAX_MATCHED_CHARS),
        firm: used.some((h) => h.firm),
      });
    }
  }
  return fired;
}

/**
 * Deterministic emergency red-flag check, run before any model call. Looks at the latest user message
 * and, to complete a cue split across turns, the last few earlier user messages (oldest first; if the
 * latest message is repeated at the end it is ignored). Returns the hit to turn into an SSE `refusal`
 * frame, or null. Never throws; no model, no network, no I/O.
 */
export function detectRedFlag(latestUserMessage: string, recentUserMessages?: string[]): RedFlagHit | null {
  return detectRedFlagRule(latestUserMessage, recentUserMessages)?.hit ?? null;
}

/**
 * {@link detectRedFlag} with whether the hit rests on a firm cue (a present danger sign the semantic stage may not
 * veto, ADR 0419). For the screen; the hit itself is the same.
 */
export function detectRedFlagRule(
  latestUserMessage: string,
  recentUserMessages?: string[],
): { hit: RedFlagHit; firm: boolean } | null {
  const latest = typeof latestUserMessage === 'string' ? latestUserMessage : '';
  const features = new Map<string, FeatureHit>();
  collectFeatures(normalizeMessage(latest), true, features);
  if (features.size === 0) return null;
  if (Array.isArray(recentUserMessages)) {
    const earlier = recentUserMessages.filter((m): m is string => typeof m === 'string');
    if (earlier.length > 0 && earlier[earlier.length - 1] === latest) earlier.pop();
    for (const message of earlier.slice(-CONTEXT_TURNS))
      collectFeatures(normalizeMessage(message), false, features);
  }
  const fired = firedCategories(features);
  for (const category of CATEGORY_PRIORITY) {
    const found = fired.get(category);
    if (found !== undefined) {
      const hit: RedFlagHit = {
        category,
        reason: 'emergency_red_flag',
        message: RED_FLAG_ADVICE[category],
        matched: found.matched,
      };
      return { hit, firm: found.firm };
    }
  }
  return null;
}
