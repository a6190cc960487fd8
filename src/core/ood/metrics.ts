/**
 * OOD detection metrics with **ID as the positive class** (OpenCIL's convention; docs/science.md §5). Scores:
 * higher = more in-distribution. OpenOOD takes OOD as positive, so its FPR@95 is a different number.
 *
 * The curves follow scikit-learn's `_binary_clf_curve`: one point per distinct score (ties form one threshold),
 * thresholds in decreasing order, cumulative true/false positives at each.
 * - AUROC = trapezoid area under `roc_curve` (the point (0, 0) first; equals sklearn's `roc_auc_score`, which
 *   also equals the Mann–Whitney statistic with ties counted ½).
 * - FPR@95 = share of OOD with score ≥ τ, τ = the largest threshold at which ID recall (TPR, computed as
 *   `tp / P` in float64 and compared `≥ 0.95`) is reached. Decision: over every distinct-score threshold, i.e.
 *   `roc_curve(..., drop_intermediate=False)`; sklearn's default drops collinear points, which can skip the exact
 *   threshold where the recall first reaches 0.95 and report a later one.
 * - AUPR-in = `auc(recall, precision)` of `precision_recall_curve(y = ID, score)` (sklearn ≥ 1.3 points: every
 *   threshold, then the end point (recall 0, precision 1); nothing cut off at full recall), trapezoid area;
 *   AUPR-out = the same with OOD as the positive class and the score negated.
 *
 * Edge cases: an empty ID or OOD set, or a score that is not a finite number, is an `OodInputError`. All scores
 * equal: AUROC 0.5, FPR@95 1, AUPR-in (1 + π)/2 with π = |ID| / (|ID| + |OOD|) — what sklearn gives.
 */
import { checkScores } from './rows';

export interface OodMetrics {
  auroc: number;
  fpr95: number;
  auprIn: number;
  auprOut: number;
}

/** Cumulative counts at each distinct score, scores decreasing: `tps[i]`, `fps[i]` = positives / negatives with score ≥ thresholds[i]. */
export interface BinaryCurve {
  thresholds: number[];
  tps: number[];
  fps: number[];
}

/** sklearn's `_binary_clf_curve` for positives `pos` and negatives `neg` (one threshold per distinct score). */
export function binaryCurve(pos: ArrayLike<number>, neg: ArrayLike<number>): BinaryCurve {
  const n = pos.length + neg.length;
  const score = new Float64Array(n);
  const label = new Uint8Array(n);
  for (let i = 0; i < pos.length; i++) {
    score[i] = pos[i];
    label[i] = 1;
  }
  for (let i = 0; i < neg.length; i++) score[pos.length + i] = neg[i];
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => score[b] - score[a]);
  const thresholds: number[] = [];
  const tps: number[] = [];
  const fps: number[] = [];
  let tp = 0;
  let fp = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    if (label[i]) tp++;
    else fp++;
    if (k === n - 1 || score[order[k + 1]] !== score[i]) {
      thresholds.push(score[i]);
      tps.push(tp);
      fps.push(fp);
    }
  }
  return { thresholds, tps, fps };
}

/** numpy.trapz(y, x) as sklearn's `auc` uses it (sign flipped for a decreasing x). */
function trapezoid(x: number[], y: number[]): number {
  let s = 0;
  for (let i = 1; i < x.length; i++) s += ((x[i] - x[i - 1]) * (y[i] + y[i - 1])) / 2;
  return s;
}

/** ROC points, ID positive: fpr and tpr from (0, 0) to (1, 1), thresholds (the first is +∞). */
export function rocCurve(idScores: ArrayLike<number>, oodScores: ArrayLike<number>): { fpr: number[]; tpr: number[]; thresholds: number[] } {
  checkScores(idScores, 'the ID scores');
  checkScores(oodScores, 'the OOD scores');
  const c = binaryCurve(idScores, oodScores);
  const P = idScores.length;
  const N = oodScores.length;
  return {
    fpr: [0, ...c.fps.map((f) => f / N)],
    tpr: [0, ...c.tps.map((t) => t / P)],
    thresholds: [Infinity, ...c.thresholds],
  };
}

export function auroc(idScores: ArrayLike<number>, oodScores: ArrayLike<number>): number {
  const r = rocCurve(idScores, oodScores);
  return trapezoid(r.fpr, r.tpr);
}

/** FPR at 95% ID recall (see the header). */
export function fprAtRecall(idScores: ArrayLike<number>, oodScores: ArrayLike<number>, recall = 0.95): number {
  checkScores(idScores, 'the ID scores');
  checkScores(oodScores, 'the OOD scores');
  const c = binaryCurve(idScores, oodScores);
  const P = idScores.length;
  for (let i = 0; i < c.tps.length; i++) if (c.tps[i] / P >= recall) return c.fps[i] / oodScores.length;
  return 1; // unreachable: the last threshold has recall 1
}

/** sklearn's precision_recall_curve points (recall decreasing, ending at (0, 1)) for positives `pos`. */
export function prCurve(pos: ArrayLike<number>, neg: ArrayLike<number>): { precision: number[]; recall: number[]; thresholds: number[] } {
  const c = binaryCurve(pos, neg);
  const last = c.tps[c.tps.length - 1];
  const precision: number[] = [];
  const recall: number[] = [];
  const thresholds: number[] = [];
  for (let i = c.tps.length - 1; i >= 0; i--) {
    const ps = c.tps[i] + c.fps[i];
    precision.push(ps === 0 ? 0 : c.tps[i] / ps);
    recall.push(last === 0 ? 1 : c.tps[i] / last);
    thresholds.push(c.thresholds[i]);
  }
  precision.push(1);
  recall.push(0);
  return { precision, recall, thresholds };
}

/** AUPR with ID positive (score as is). */
export function auprIn(idScores: ArrayLike<number>, oodScores: ArrayLike<number>): number {
  checkScores(idScores, 'the ID scores');
  checkScores(oodScores, 'the OOD scores');
  const pr = prCurve(idScores, oodScores);
  return -trapezoid(pr.recall, pr.precision);
}

/** AUPR with OOD positive and the score negated. */
export function auprOut(idScores: ArrayLike<number>, oodScores: ArrayLike<number>): number {
  checkScores(idScores, 'the ID scores');
  checkScores(oodScores, 'the OOD scores');
  const neg = (a: ArrayLike<number>) => Array.from(a, (v) => -v);
  const pr = prCurve(neg(oodScores), neg(idScores));
  return -trapezoid(pr.recall, pr.precision);
}

/** All four metrics of one (ID, OOD) pair of score lists. */
export function oodMetrics(idScores: ArrayLike<number>, oodScores: ArrayLike<number>): OodMetrics {
  return {
    auroc: auroc(idScores, oodScores),
    fpr95: fprAtRecall(idScores, oodScores, 0.95),
    auprIn: auprIn(idScores, oodScores),
    auprOut: auprOut(idScores, oodScores),
  };
}
