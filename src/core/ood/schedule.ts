/**
 * The per-step evaluation schedule of OpenCIL (docs/science.md §5; the paper's Eq. 6) and how per-step results
 * are averaged.
 *
 * At step t (0-based, T steps) the ID data is the test data of tasks 0..t and the OOD data of each OOD set is the
 * first ⌊|OOD|·(t+1)/T⌋ examples of a fixed seeded shuffle of that set — the same shuffle at every step, so each
 * step's OOD data contains the previous step's. The shuffle is numpy's `default_rng(seed).permutation(|OOD|)`.
 * Results average over steps first, then over OOD sets (Table 1 reports those averages).
 */
import { defaultRngPermutation } from '../random/default-rng';
import { OodInputError } from './rows';
import type { OodMetrics } from './metrics';

/** ⌊n·(t+1)/T⌋: how many OOD examples step t uses. */
export function oodCountAtStep(n: number, step: number, steps: number): number {
  if (!Number.isInteger(steps) || steps < 1) throw new OodInputError(`the number of steps must be a whole number ≥ 1; got ${steps}.`);
  if (!Number.isInteger(step) || step < 0 || step >= steps) throw new OodInputError(`step ${step} is outside 0..${steps - 1}.`);
  if (!Number.isInteger(n) || n < 0) throw new OodInputError(`the OOD set size must be a whole number ≥ 0; got ${n}.`);
  return Math.floor((n * (step + 1)) / steps);
}

/** The fixed shuffle of an OOD set of n examples (`default_rng(seed).permutation(n)`). */
export function oodShuffle(n: number, seed: number): number[] {
  return defaultRngPermutation(seed >>> 0, n);
}

/** Indices (into the OOD set) used at step t: a prefix of the shuffle. */
export function oodIndicesAtStep(shuffle: readonly number[], step: number, steps: number): number[] {
  return shuffle.slice(0, oodCountAtStep(shuffle.length, step, steps));
}

/** One per-step result row (what `cil-lab ood` prints and the lab stores). */
export interface StepResult extends OodMetrics {
  step: number;
  detector: string;
  oodSet: string;
  idCount: number;
  oodCount: number;
}

export interface DetectorSummary {
  detector: string;
  /** per OOD set: the metrics averaged over steps */
  perSet: ({ oodSet: string; steps: number } & OodMetrics)[];
  /** the per-set averages averaged over OOD sets */
  mean: OodMetrics;
}

const KEYS: (keyof OodMetrics)[] = ['auroc', 'fpr95', 'auprIn', 'auprOut'];

function meanOf(rows: OodMetrics[]): OodMetrics {
  const out = { auroc: 0, fpr95: 0, auprIn: 0, auprOut: 0 };
  for (const k of KEYS) out[k] = rows.reduce((s, r) => s + r[k], 0) / rows.length;
  return out;
}

/** Averages over steps, then over OOD sets, per detector (order of first appearance kept). */
export function summarizeResults(results: readonly StepResult[]): DetectorSummary[] {
  const detectors = [...new Set(results.map((r) => r.detector))];
  return detectors.map((detector) => {
    const mine = results.filter((r) => r.detector === detector);
    const sets = [...new Set(mine.map((r) => r.oodSet))];
    const perSet = sets.map((oodSet) => {
      const rows = mine.filter((r) => r.oodSet === oodSet);
      return { oodSet, steps: rows.length, ...meanOf(rows) };
    });
    return { detector, perSet, mean: meanOf(perSet) };
  });
}
