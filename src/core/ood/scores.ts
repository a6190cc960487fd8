/**
 * Post-hoc OOD scores that need only the logits z of each example (docs/science.md §5; the OpenCIL paper's
 * post-hoc framework, Algorithm 1). Higher = more in-distribution, for every score.
 *
 * - MSP (Hendrycks & Gimpel): `max_k softmax(z)_k`.
 * - MaxLogit (Hendrycks et al.): `max_k z_k`.
 * - Energy (Liu et al.): `T·logsumexp(z/T)`, T = 1 (the negative free energy).
 * - GEN (Liu et al. 2023): `−Σ_{the M largest p_k} p_k^γ (1 − p_k)^γ`, γ = 0.1, M = min(100, C) — OpenOOD's
 *   gen_postprocessor: sort p, keep the top M, sum, negate.
 * - ODIN's score function: `max_k softmax(z/T)_k`, T = 1000. ODIN's input perturbation (x' = x − ε·sign(∇ₓ …))
 *   needs gradients and lives in the engine (src/engine/ood); this is the score of the perturbed input's logits.
 *
 * The logits are those of the classes seen so far (the head prefix; models.ts). Arithmetic is float64 whatever the
 * input type.
 */
import { checkRows, logSumExp, softmaxRow, type Rows } from './rows';

export const GEN_GAMMA = 0.1;
export const GEN_TOP_M = 100;
export const ODIN_TEMPERATURE = 1000;
export const ENERGY_TEMPERATURE = 1;

/** MSP: the largest softmax probability of each row. */
export function mspScores(logits: Rows): number[] {
  checkRows(logits, 'the logits');
  return Array.from({ length: logits.length }, (_, i) => Math.max(...softmaxRow(logits[i])));
}

/** MaxLogit: the largest logit of each row. */
export function maxLogitScores(logits: Rows): number[] {
  checkRows(logits, 'the logits');
  return Array.from({ length: logits.length }, (_, i) => {
    const z = logits[i];
    let m = -Infinity;
    for (let k = 0; k < z.length; k++) if (z[k] > m) m = z[k];
    return m;
  });
}

/** Energy: T·logsumexp(z/T) of each row (T = 1 by default). */
export function energyScores(logits: Rows, temperature = ENERGY_TEMPERATURE): number[] {
  checkRows(logits, 'the logits');
  if (!(temperature > 0)) throw new RangeError(`the energy temperature must be > 0; got ${temperature}.`);
  return Array.from({ length: logits.length }, (_, i) => temperature * logSumExp(logits[i], 1 / temperature));
}

/** GEN: −Σ over the M largest probabilities of p^γ(1−p)^γ (γ = 0.1, M = min(100, C)). */
export function genScores(logits: Rows, gamma = GEN_GAMMA, topM = GEN_TOP_M): number[] {
  const width = checkRows(logits, 'the logits');
  const m = Math.min(topM, width);
  return Array.from({ length: logits.length }, (_, i) => {
    const p = softmaxRow(logits[i]).sort(); // ascending
    let s = 0;
    for (let k = width - m; k < width; k++) s += Math.pow(p[k], gamma) * Math.pow(1 - p[k], gamma);
    return -s;
  });
}

/** ODIN's score on (perturbed-input) logits: max softmax(z/T), T = 1000. */
export function odinScores(logits: Rows, temperature = ODIN_TEMPERATURE): number[] {
  checkRows(logits, 'the logits');
  if (!(temperature > 0)) throw new RangeError(`the ODIN temperature must be > 0; got ${temperature}.`);
  return Array.from({ length: logits.length }, (_, i) => Math.max(...softmaxRow(logits[i], 1 / temperature)));
}

/** The scores that need nothing but the logits, by name (the CLI's `ood-scores`). */
export const LOGIT_DETECTORS = {
  msp: mspScores,
  maxlogit: maxLogitScores,
  energy: (z: Rows) => energyScores(z),
  gen: (z: Rows) => genScores(z),
  odin: (z: Rows) => odinScores(z),
} as const;
export type LogitDetector = keyof typeof LOGIT_DETECTORS;
export const LOGIT_DETECTOR_NAMES = Object.keys(LOGIT_DETECTORS) as LogitDetector[];
