import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { detectRedFlag } from './red-flag-detector';
import {
  RED_FLAG_CATEGORIES,
  isRedFlagCategory,
  type RedFlagCategory,
  type RedFlagHit,
} from './red-flag-types';

/** The folder holding labelled.jsonl and holdout.jsonl (same relative path from src/ and dist/). */
export const RED_FLAG_DATA_DIR = resolve(__dirname, '../../data/red-flags');

/**
 * The files the shipped semantic model is trained on, in the order `bench/red-flags/train-semantic.mjs` hashes them
 * into the model's `trainedOn` (ADR 0414, 0418, 0429, 0434). Never holdout.jsonl, train-hard.jsonl, ordinary.jsonl or a final set.
 */
export const SEMANTIC_TRAINING_FILES = [
  'labelled.jsonl',
  'train.jsonl',
  'train-v4.jsonl',
  'train-v5-hard.jsonl',
  'train-v5-voices.jsonl',
  'blind-dev.jsonl',
  'blind1-spent.jsonl',
  'blind2-spent.jsonl',
  'blind3-spent.jsonl',
  'blind4-spent.jsonl',
  'blind5-spent.jsonl',
  'blind6-spent.jsonl',
  'blind7-spent.jsonl',
  'blind8-spent.jsonl',
  'train-v6a.jsonl',
  'train-v6b.jsonl',
] as const;

/** Ordinary messages the screen must answer at any operating point the trainer picks (ADR 0414). */
export const ORDINARY_FILE = 'ordinary.jsonl';

/** One labelled message: the expected category, or null when the detector must stay silent. */
export interface LabelledCase {
  text: string;
  label: RedFlagCategory | null;
  note?: string;
  /** Earlier user turns, oldest first, passed as recentUserMessages. */
  context?: string[];
}

/** Parses a JSONL labelled set; throws with the line number on the first malformed line. */
export function parseLabelledJsonl(content: string): LabelledCase[] {
  const cases: LabelledCase[] = [];
  content.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const row = JSON.parse(line) as Record<string, unknown>;
    const { text, label, note, context } = row;
    const contextOk =
      context === undefined || (Array.isArray(context) && context.every((c) => typeof c === 'string'));
    if (typeof text !== 'string' || !(label === null || isRedFlagCategory(label)) || !contextOk) {
      throw new Error(`labelled set line ${i + 1}: expected {text, label: category|null, note?, context?}`);
    }
    cases.push({
      text,
      label,
      ...(typeof note === 'string' ? { note } : {}),
      ...(context ? { context: context as string[] } : {}),
    });
  });
  return cases;
}

/** Reads and parses a labelled file by name from RED_FLAG_DATA_DIR (or an absolute path). */
export function loadLabelledFile(nameOrPath: string): LabelledCase[] {
  return parseLabelledJsonl(readFileSync(resolve(RED_FLAG_DATA_DIR, nameOrPath), 'utf8'));
}

/** Scores for one category, one-vs-rest. */
export interface CategoryScore {
  category: RedFlagCategory;
  support: number;
  truePositives: number;
  predicted: number;
  recall: number;
  precision: number;
  falsePositiveRate: number;
}

/** A labelled case the detector got wrong, with what it said. */
export interface ScoredMiss extends LabelledCase {
  predicted: RedFlagCategory | null;
  matched?: string;
}

/** Overall and per-category quality of a detector on a labelled set. */
export interface QualityReport {
  total: number;
  emergencies: number;
  negatives: number;
  /** Share of emergencies on which the detector fired at all (any category). */
  recall: number;
  /** Share of emergencies given their exact labelled category. */
  categoryAccuracy: number;
  /** Share of non-emergencies on which the detector fired. */
  falsePositiveRate: number;
  /** Share of firings that were on emergencies. */
  precision: number;
  perCategory: CategoryScore[];
  misses: ScoredMiss[];
}

type Detector = (latest: string, recent?: string[]) => RedFlagHit | null;

const ratio = (num: number, den: number): number => (den === 0 ? 1 : num / den);

/** Runs the detector over the cases and computes the report. */
export function scoreDetector(
  cases: readonly LabelledCase[],
  detect: Detector = detectRedFlag,
): QualityReport {
  const predictions = cases.map((c) => detect(c.text, c.context));
  const emergencies = cases.filter((c) => c.label !== null).length;
  const negatives = cases.length - emergencies;
  let fired = 0;
  let firedOnEmergency = 0;
  let exact = 0;
  let falsePositives = 0;
  const misses: ScoredMiss[] = [];
  cases.forEach((c, i) => {
    const hit = predictions[i]!;
    if (hit) fired++;
    if (hit && c.label !== null) firedOnEmergency++;
    if (hit && c.label === null) falsePositives++;
    if (hit && hit.category === c.label) exact++;
    if ((hit?.category ?? null) !== c.label)
      misses.push({ ...c, predicted: hit?.category ?? null, ...(hit ? { matched: hit.matched } : {}) });
  });
  const perCategory = RED_FLAG_CATEGORIES.map((category): CategoryScore => {
    const support = cases.filter((c) => c.label === category).length;
    const predicted = predictions.filter((p) => p?.category === category).length;
    const truePositives = cases.filter(
      (c, i) => c.label === category && predictions[i]?.category === category,
    ).length;
    return {
      category,
      support,
      truePositives,
      predicted,
      recall: ratio(truePositives, support),
      precision: ratio(truePositives, predicted),
      falsePositiveRate:
        cases.length === support ? 0 : (predicted - truePositives) / (cases.length - support),
    };
  });
  return {
    total: cases.length,
    emergencies,
    negatives,
    recall: ratio(firedOnEmergency, emergencies),
    categoryAccuracy: ratio(exact, emergencies),
    falsePositiveRate: negatives === 0 ? 0 : falsePositives / negatives,
    precision: ratio(firedOnEmergency, fired),
    perCategory,
    misses,
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`.padStart(7);

/** A plain-text table of the report, for the bench script and for humans. */
export function formatQualityTable(report: QualityReport, title: string): string {
  const lines = [
    `${title}: ${report.total} messages (${report.emergencies} emergencies, ${report.negatives} non-emergencies)`,
    `${'category'.padEnd(22)} ${'n'.padStart(4)} ${'recall'.padStart(7)} ${'precis.'.padStart(7)} ${'FP rate'.padStart(7)}`,
  ];
  for (const s of report.perCategory) {
    lines.push(
      `${s.category.padEnd(22)} ${String(s.support).padStart(4)} ${pct(s.recall)} ${pct(s.precision)} ${pct(s.falsePositiveRate)}`,
    );
  }
  lines.push(
    `${'ANY EMERGENCY'.padEnd(22)} ${String(report.emergencies).padStart(4)} ${pct(report.recall)} ${pct(report.precision)} ${pct(report.falsePositiveRate)}`,
    `exact category on emergencies: ${pct(report.categoryAccuracy).trim()}; FP rate = share of the ${report.negatives} non-emergencies that fired`,
  );
  return lines.join('\n');
}
