/**
 * Seeded synthetic softmax outputs for the conformal tests (not a test file): normals, gammas and Dirichlet
 * draws on numpy's default_rng stream (createDefaultRng), softmax rows, and labels drawn from the rows.
 */
import type { DefaultRng } from '../../../../src/core/random/default-rng';

/** A standard normal (Box–Muller on two uniforms). */
export function normal(rng: DefaultRng): number {
  let u = rng.random();
  while (u === 0) u = rng.random();
  const v = rng.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Gamma(shape, 1) (Marsaglia & Tsang; shape < 1 via the U^{1/a} boost). */
export function gamma(rng: DefaultRng, shape: number): number {
  if (shape < 1) {
    let u = rng.random();
    while (u === 0) u = rng.random();
    return gamma(rng, shape + 1) * u ** (1 / shape);
  }
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.random();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

export function softmax(z: readonly number[]): number[] {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

export function dirichletRow(rng: DefaultRng, K: number, concentration: number): number[] {
  const g = Array.from({ length: K }, () => gamma(rng, concentration));
  const s = g.reduce((a, b) => a + b, 0);
  return g.map((v) => v / s);
}

export function gaussianSoftmaxRow(rng: DefaultRng, K: number, scale: number): number[] {
  return softmax(Array.from({ length: K }, () => scale * normal(rng)));
}

/** A label drawn from the row's probabilities (inverse CDF). */
export function drawLabel(rng: DefaultRng, row: readonly number[]): number {
  const u = rng.random();
  let cum = 0;
  for (let k = 0; k < row.length; k++) {
    cum += row[k];
    if (u < cum) return k;
  }
  return row.length - 1;
}

/** n exchangeable examples: probabilities from `makeRow`, labels drawn from them (a calibrated model). */
export function exchangeable(rng: DefaultRng, n: number, makeRow: () => number[]): { probs: number[][]; labels: number[] } {
  const probs: number[][] = [];
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = makeRow();
    probs.push(row);
    labels.push(drawLabel(rng, row));
  }
  return { probs, labels };
}
