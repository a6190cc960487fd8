/**
 * The Curriculum lab's numbers for one order (docs/science.md §8, §4): the paper's ACC, BWT (Eq. 2) and FWT (raw
 * mean of the upper triangle) from src/core/metrics/m2i.ts, and the artefact baseline ACC₀ from the isolated
 * accuracies a_j taken in that order — the ACC a model with no transfer and no forgetting would get. ACC − ACC₀ is
 * what the order did beyond the metric's weighting of early tasks.
 */
import { artefactBaselineAccuracy, m2iMetrics } from '../metrics/m2i';

export interface CurriculumMetrics {
  acc: number;
  bwt: number | null;
  fwt: number | null;
  acc0: number;
  /** acc − acc0 */
  gain: number;
}

/** The isolated accuracies in training order: a[order[t]]. */
export function isolatedInOrder(isolated: readonly number[], order: readonly number[]): number[] {
  return order.map((p) => isolated[p]);
}

export function curriculumMetrics(R: number[][], isolated: readonly number[], order: readonly number[]): CurriculumMetrics {
  const m = m2iMetrics(R);
  const acc0 = artefactBaselineAccuracy(isolatedInOrder(isolated, order));
  return { acc: m.accuracy, bwt: m.bwt, fwt: m.fwt, acc0, gain: m.accuracy - acc0 };
}

/**
 * How much of M2I's lead over I2M the artefact explains: ΔACC = ACC(M2I) − ACC(I2M), ΔACC₀ the same for ACC₀, and
 * share = ΔACC₀ / ΔACC (null when ΔACC is 0). A share near 1 means "easy first wins" is the metric's weighting
 * alone; above 1, the order did worse than the weighting predicts.
 */
export function m2iLead(m2i: { acc: number; acc0: number }, i2m: { acc: number; acc0: number }): { deltaAcc: number; deltaAcc0: number; share: number | null } {
  const deltaAcc = m2i.acc - i2m.acc;
  const deltaAcc0 = m2i.acc0 - i2m.acc0;
  return { deltaAcc, deltaAcc0, share: deltaAcc === 0 ? null : deltaAcc0 / deltaAcc };
}
