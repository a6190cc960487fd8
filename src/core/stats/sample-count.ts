/**
 * The sample-count study (docs/science.md §2 "Sample-count study"; EDGE paper App. E.5, Fig. A6): how well the
 * Gaussian estimate matches the truth (JSD, W1) as the number of evaluated orderings L grows, for RS (L random
 * orderings) and EDGE-plus-random (EDGE's hard, easy and median plus L − 3 random ones; null below L = 3), each
 * averaged over R seeded repeats (mean and population std). scripts/make-stats-fixtures.py mirrors every decision.
 */
import { createDefaultRng } from '../random/default-rng';
import { prepareTruth, qualityAgainstTruth, type EstimateQuality } from './estimate';
import { fitGaussian } from './gaussian';

export interface SampleCountOptions {
  /** A(O) for every truth ordering. */
  truth: ArrayLike<number>;
  /** EDGE's orderings as indices into `truth` (hard, easy, median). */
  edgeIndices?: readonly number[];
  /** EDGE's values, when they are not truth orderings. */
  edgeValues?: readonly number[];
  /** Largest L (default 20). */
  maxL?: number;
  /** Number of seeded repeats R (default 100). */
  repeats?: number;
  /** Seed of `default_rng` (default 0). */
  seed?: number;
}

export interface QualityStats {
  jsd: number;
  w1: number;
  /** Population std over the repeats. */
  jsdStd: number;
  w1Std: number;
}

export interface SampleCountPoint {
  L: number;
  rs: QualityStats | null;
  edge: QualityStats | null;
}

export interface SampleCountStudy {
  points: SampleCountPoint[];
  repeats: number;
  seed: number;
  truthCount: number;
  /** EDGE's values used (3). */
  edgeValues: number[];
}

export const EDGE_ORDERINGS = 3;

function stats(list: EstimateQuality[]): QualityStats {
  const n = list.length;
  let j = 0;
  let w = 0;
  for (const q of list) {
    j += q.jsd;
    w += q.w1;
  }
  j /= n;
  w /= n;
  let jv = 0;
  let wv = 0;
  for (const q of list) {
    jv += (q.jsd - j) ** 2;
    wv += (q.w1 - w) ** 2;
  }
  return { jsd: j, w1: w, jsdStd: Math.sqrt(jv / n), w1Std: Math.sqrt(wv / n) };
}

/**
 * Run the study. Random orderings come from the truth's (Ω, or the sample standing in for it) **without
 * replacement**, as Theorem 1's finite-population bound assumes; L is capped at the truth count (RS) and at 3 + the
 * non-EDGE truth count. Samples are nested: repeat r draws one order of all truth indices and takes its first L, so
 * a repeat's curve does not depend on Lmax and L+1 adds one ordering to L's. One generator, numpy's
 * `default_rng(seed)`; per repeat `rsOrder = rng.permutation(n)`, then `extraOrder = rng.permutation(n)` without
 * EDGE's indices (both drawn every repeat). EDGE is given by index into the truth (`edgeIndices`, the enumerable
 * case: excluded from the extra draws) or by value (`edgeValues`, a sampled truth: nothing excluded).
 */
export function sampleCountStudy(options: SampleCountOptions): SampleCountStudy {
  const truth = options.truth;
  const n = truth.length;
  if (n === 0) throw new RangeError('The sample-count study needs truth values.');
  const maxL = options.maxL ?? 20;
  const repeats = options.repeats ?? 100;
  const seed = options.seed ?? 0;
  if (!Number.isInteger(maxL) || maxL < 1) throw new RangeError(`maxL must be a whole number ≥ 1; got ${maxL}.`);
  if (!Number.isInteger(repeats) || repeats < 1) throw new RangeError(`repeats must be a whole number ≥ 1; got ${repeats}.`);
  if ((options.edgeIndices === undefined) === (options.edgeValues === undefined)) {
    throw new RangeError('Give EDGE as either edgeIndices (into the truth) or edgeValues.');
  }
  const exclude = new Set<number>();
  let edgeValues: number[];
  if (options.edgeIndices) {
    if (options.edgeIndices.length !== EDGE_ORDERINGS) throw new RangeError(`EDGE has ${EDGE_ORDERINGS} orderings; got ${options.edgeIndices.length} indices.`);
    for (const i of options.edgeIndices) {
      if (!Number.isInteger(i) || i < 0 || i >= n) throw new RangeError(`EDGE index ${i} is not a truth index (0..${n - 1}).`);
      exclude.add(i);
    }
    edgeValues = options.edgeIndices.map((i) => truth[i]);
  } else {
    edgeValues = [...(options.edgeValues as readonly number[])];
    if (edgeValues.length !== EDGE_ORDERINGS) throw new RangeError(`EDGE has ${EDGE_ORDERINGS} orderings; got ${edgeValues.length} values.`);
  }
  const prepared = prepareTruth(truth);
  const rng = createDefaultRng(seed);
  const rsMax = Math.min(maxL, n);
  const edgeMax = Math.min(maxL, EDGE_ORDERINGS + n - exclude.size);
  const rsQ: EstimateQuality[][] = Array.from({ length: maxL + 1 }, () => []);
  const edgeQ: EstimateQuality[][] = Array.from({ length: maxL + 1 }, () => []);
  for (let r = 0; r < repeats; r++) {
    const rsOrder = rng.permutation(n);
    const extraOrder = rng.permutation(n).filter((i) => !exclude.has(i));
    const rsSample: number[] = [];
    for (let L = 1; L <= rsMax; L++) {
      rsSample.push(truth[rsOrder[L - 1]]);
      rsQ[L].push(qualityAgainstTruth(prepared, fitGaussian(rsSample)));
    }
    const edgeSample = [...edgeValues];
    for (let L = EDGE_ORDERINGS; L <= edgeMax; L++) {
      if (L > EDGE_ORDERINGS) edgeSample.push(truth[extraOrder[L - EDGE_ORDERINGS - 1]]);
      edgeQ[L].push(qualityAgainstTruth(prepared, fitGaussian(edgeSample)));
    }
  }
  const points: SampleCountPoint[] = [];
  for (let L = 1; L <= maxL; L++) {
    points.push({ L, rs: rsQ[L].length ? stats(rsQ[L]) : null, edge: edgeQ[L].length ? stats(edgeQ[L]) : null });
  }
  return { points, repeats, seed, truthCount: n, edgeValues };
}
