/**
 * Post-hoc OOD scores that need the penultimate features h and/or set-up data from the in-distribution (ID)
 * training side (docs/science.md §5; OpenOOD's postprocessors as OpenCIL runs them). Higher = more ID.
 *
 * Set-up data at step t is the current task's training data plus the exemplar memory (the engine picks it; these
 * functions take whatever rows they are given). ĥ = h/‖h‖.
 *
 * - ReAct (Sun et al.): c = the 90th percentile of every ID activation value (numpy's default 'linear'
 *   percentile over the flattened set-up features), score = logsumexp(W·min(h, c) + b) with the classifier's
 *   last layer W, b (the seen classes' columns).
 * - KLM (Hendrycks et al.): d_k = mean softmax of the set-up samples predicted k (arg-max), score =
 *   −min_k KL(p ‖ d_k) with KL as scipy.stats.entropy(p, d_k) (both normalised to sum 1; 0·log 0 = 0).
 * - Relation (Kim et al.): ĥ with OpenOOD's `h / sqrt(Σh² + 1e-10)`; r_j = max(0, ĥ·ĥ_j)·(p·p_j) over a bank of
 *   set-up samples, score = Σ_{|r_j| > 0.03} r_j (power 1).
 * - NNGuide (Park et al.): ĥ with torch's `F.normalize` (`h / max(‖h‖, 1e-12)`); bank g_j = ĥ_j·logsumexp(z_j)
 *   of a small share (~1%) of the set-up data; score = mean of the K largest ĥ·g_j (K = 100, or the bank size
 *   if smaller) × logsumexp(z).
 */
import { quantileSorted } from '../stats/quantile';
import { checkRows, dot, logSumExp, normalizeRow, OodInputError, softmaxRow, type Rows } from './rows';

// ---------------------------------------------------------------- ReAct

/** numpy.percentile(values, q) with the default 'linear' method (numpy's own interpolation formula). */
export function percentileLinear(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) throw new OodInputError('percentile of an empty set of values.');
  return quantileSorted(Float64Array.from(values as ArrayLike<number>).sort(), q / 100);
}

/** ReAct's clip value: the p-th percentile (default 90) of every value of the set-up features. */
export function reactThreshold(features: Rows, percentile = 90): number {
  const d = checkRows(features, 'the set-up features');
  const flat = new Float64Array(features.length * d);
  for (let i = 0; i < features.length; i++) for (let k = 0; k < d; k++) flat[i * d + k] = features[i][k];
  return percentileLinear(flat, percentile);
}

/** A dense layer: `weights` row-major [inDim][outDim] (the engine's kernel layout), `bias` [outDim]. */
export interface LinearLayer {
  weights: ArrayLike<number>;
  bias: ArrayLike<number>;
  inDim: number;
  outDim: number;
}

function checkLayer(layer: LinearLayer, featureWidth: number): void {
  if (layer.inDim !== featureWidth) throw new OodInputError(`the layer takes ${layer.inDim} features but the rows have ${featureWidth}.`);
  if (layer.weights.length !== layer.inDim * layer.outDim)
    throw new OodInputError(`the layer's weights hold ${layer.weights.length} values, not ${layer.inDim}×${layer.outDim}.`);
  if (layer.bias.length !== layer.outDim) throw new OodInputError(`the layer's bias holds ${layer.bias.length} values, not ${layer.outDim}.`);
}

/** ReAct: logsumexp(W·min(h, c) + b) of each row. */
export function reactScores(features: Rows, layer: LinearLayer, clip: number): number[] {
  const d = checkRows(features, 'the features');
  checkLayer(layer, d);
  const { weights: W, bias: b, outDim: C } = layer;
  const z = new Float64Array(C);
  return Array.from({ length: features.length }, (_, i) => {
    const h = features[i];
    for (let c = 0; c < C; c++) z[c] = b[c];
    for (let k = 0; k < d; k++) {
      const v = Math.min(h[k], clip);
      if (v === 0) continue;
      for (let c = 0; c < C; c++) z[c] += v * W[k * C + c];
    }
    return logSumExp(z);
  });
}

// ---------------------------------------------------------------- KLM

/**
 * KLM's class templates: d_k = mean softmax of the set-up rows predicted k; null for a class nobody is predicted,
 * which is then left out of the score's minimum (our decision: OpenOOD's mean of an empty set would be NaN).
 */
export function klmTemplates(logits: Rows): (Float64Array | null)[] {
  const C = checkRows(logits, 'the set-up logits');
  const sums: Float64Array[] = Array.from({ length: C }, () => new Float64Array(C));
  const counts = new Int32Array(C);
  for (let i = 0; i < logits.length; i++) {
    const p = softmaxRow(logits[i]);
    let arg = 0;
    for (let k = 1; k < C; k++) if (p[k] > p[arg]) arg = k;
    counts[arg]++;
    for (let k = 0; k < C; k++) sums[arg][k] += p[k];
  }
  return sums.map((s, k) => (counts[k] === 0 ? null : s.map((v) => v / counts[k])));
}

/** scipy.stats.entropy(p, q): Σ p̄ log(p̄/q̄) with p̄, q̄ normalised to sum 1; 0 where p̄ = 0, ∞ where q̄ = 0 < p̄. */
export function klDivergence(p: ArrayLike<number>, q: ArrayLike<number>): number {
  let sp = 0;
  let sq = 0;
  for (let k = 0; k < p.length; k++) {
    sp += p[k];
    sq += q[k];
  }
  let s = 0;
  for (let k = 0; k < p.length; k++) {
    const a = p[k] / sp;
    const b = q[k] / sq;
    if (a > 0) s += b > 0 ? a * Math.log(a / b) : Infinity;
  }
  return s;
}

/** KLM: −min_k KL(p ‖ d_k) of each row. */
export function klmScores(logits: Rows, templates: readonly (ArrayLike<number> | null)[]): number[] {
  const C = checkRows(logits, 'the logits');
  if (templates.length !== C) throw new OodInputError(`KLM has ${templates.length} class templates but the logits have ${C} classes.`);
  if (templates.every((d) => d === null)) throw new OodInputError('KLM has no class template (no set-up data).');
  return Array.from({ length: logits.length }, (_, i) => {
    const p = softmaxRow(logits[i]);
    let best = Infinity;
    for (const d of templates) if (d) best = Math.min(best, klDivergence(p, d));
    return -best;
  });
}

// ---------------------------------------------------------------- Relation

export const RELATION_THRESHOLD = 0.03;

/** The Relation bank: normalised features and softmax of the bank samples. */
export interface RelationBank {
  features: Float64Array[];
  probs: Float64Array[];
}

export function relationBank(features: Rows, logits: Rows): RelationBank {
  checkRows(features, 'the bank features');
  checkRows(logits, 'the bank logits');
  if (features.length !== logits.length) throw new OodInputError(`the bank has ${features.length} feature rows but ${logits.length} logit rows.`);
  return {
    features: Array.from({ length: features.length }, (_, j) => normalizeRow(features[j], 'sqrt-add', 1e-10)),
    probs: Array.from({ length: logits.length }, (_, j) => softmaxRow(logits[j])),
  };
}

/** Relation: Σ_{|r_j| > threshold} r_j with r_j = max(0, ĥ·ĥ_j)·(p·p_j). */
export function relationScores(features: Rows, logits: Rows, bank: RelationBank, threshold = RELATION_THRESHOLD): number[] {
  checkRows(features, 'the features');
  checkRows(logits, 'the logits');
  if (features.length !== logits.length) throw new OodInputError(`${features.length} feature rows but ${logits.length} logit rows.`);
  if (bank.features.length === 0) throw new OodInputError('the Relation bank is empty.');
  return Array.from({ length: features.length }, (_, i) => {
    const h = normalizeRow(features[i], 'sqrt-add', 1e-10);
    const p = softmaxRow(logits[i]);
    let s = 0;
    for (let j = 0; j < bank.features.length; j++) {
      const sim = Math.max(0, dot(h, bank.features[j]));
      if (sim === 0) continue;
      const r = sim * dot(p, bank.probs[j]);
      if (Math.abs(r) > threshold) s += r;
    }
    return s;
  });
}

// ---------------------------------------------------------------- NNGuide

export const NNGUIDE_K = 100;

/** The NNGuide bank: g_j = ĥ_j · logsumexp(z_j). */
export function nnguideBank(features: Rows, logits: Rows): Float64Array[] {
  checkRows(features, 'the bank features');
  checkRows(logits, 'the bank logits');
  if (features.length !== logits.length) throw new OodInputError(`the bank has ${features.length} feature rows but ${logits.length} logit rows.`);
  return Array.from({ length: features.length }, (_, j) => {
    const h = normalizeRow(features[j], 'max', 1e-12);
    const conf = logSumExp(logits[j]);
    return h.map((v) => v * conf);
  });
}

/** NNGuide: mean of the K largest ĥ·g_j (K = min(k, bank size)) × logsumexp(z). */
export function nnguideScores(features: Rows, logits: Rows, bank: readonly ArrayLike<number>[], k = NNGUIDE_K): number[] {
  checkRows(features, 'the features');
  checkRows(logits, 'the logits');
  if (features.length !== logits.length) throw new OodInputError(`${features.length} feature rows but ${logits.length} logit rows.`);
  if (bank.length === 0) throw new OodInputError('the NNGuide bank is empty.');
  const K = Math.min(k, bank.length);
  const sims = new Float64Array(bank.length);
  return Array.from({ length: features.length }, (_, i) => {
    const h = normalizeRow(features[i], 'max', 1e-12);
    for (let j = 0; j < bank.length; j++) sims[j] = dot(h, bank[j]);
    const top = sims.slice().sort(); // ascending
    let s = 0;
    for (let j = bank.length - K; j < bank.length; j++) s += top[j];
    return (s / K) * logSumExp(logits[i]);
  });
}
