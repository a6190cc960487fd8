/** Typed access to tests/fixtures/ood.json (made by scripts/make-ood-fixtures.py). */
import raw from '../../../fixtures/ood.json';

export interface FxMetricCase {
  name: string;
  id: number[];
  ood: number[];
  auroc: number;
  fpr95: number;
  auprIn: number;
  auprOut: number;
}
export interface FxScheduleCase {
  n: number;
  seed: number;
  steps: number;
  permutation: number[];
  counts: number[];
}
export interface FxScoreCase {
  name: string;
  logits: number[][];
  features: number[][];
  layer: { weights: number[]; bias: number[]; inDim: number; outDim: number };
  setupLogits: number[][];
  setupFeatures: number[][];
  bankSize: number;
  K: number;
  scores: Record<'msp' | 'maxlogit' | 'energy' | 'gen' | 'odin' | 'react' | 'klm' | 'relation' | 'nnguide', number[]>;
  reactClip: number;
  klmTemplates: (number[] | null)[];
}

export const fx = raw as unknown as { note: string; metrics: FxMetricCase[]; schedule: FxScheduleCase[]; scores: FxScoreCase[] };

/** Element-wise |a − b| ≤ tol·max(1, |b|). */
export function expectAllClose(got: ArrayLike<number>, want: ArrayLike<number>, tol: number, what: string): void {
  if (got.length !== want.length) throw new Error(`${what}: length ${got.length} ≠ ${want.length}`);
  for (let i = 0; i < want.length; i++) {
    const err = Math.abs(got[i] - want[i]);
    if (!(err <= tol * Math.max(1, Math.abs(want[i])))) throw new Error(`${what}[${i}]: got ${got[i]}, want ${want[i]} (|Δ| = ${err})`);
  }
}
