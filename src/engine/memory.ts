/**
 * Rehearsal memories: which training examples a strategy keeps, under a fixed budget. Everything here works on
 * plain arrays of example indices (into the dataset's training split), so a memory is trivially part of a
 * checkpoint. Randomness comes from the task's seeded generator only.
 */
import type { DefaultRng } from '../core/random/default-rng';
import type { StateValue } from './types';

/**
 * Reservoir sampling (Vitter's algorithm R), as experience replay uses it: after the stream's n-th item the
 * memory is a uniform sample of size min(n, budget) of everything seen. `seen` counts the items before `stream`.
 */
export function reservoirUpdate(
  memory: Int32Array,
  seen: number,
  stream: ArrayLike<number>,
  budget: number,
  rng: DefaultRng,
): { memory: Int32Array; seen: number } {
  const mem = Array.from(memory);
  let n = seen;
  for (let k = 0; k < stream.length; k++, n++) {
    if (mem.length < budget) mem.push(stream[k]);
    else {
      const j = rng.integers(0, n + 1);
      if (j < budget) mem[j] = stream[k];
    }
  }
  return { memory: Int32Array.from(mem), seen: n };
}

/** Rows of an n×d matrix scaled to unit L2 norm (a zero row stays zero). */
export function l2NormalizeRows(x: Float32Array, n: number, d: number): Float32Array {
  const out = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < d; k++) s += x[i * d + k] ** 2;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let k = 0; k < d; k++) out[i * d + k] = x[i * d + k] * inv;
  }
  return out;
}

/**
 * iCaRL's herding (Rebuffi et al. 2017, Alg. 4) on L2-normalised features: pick, one at a time, the example
 * that brings the mean of the picked examples closest to the class mean μ:
 * `p_k = argmin_x ‖μ − (φ(x) + Σ_{j<k} φ(p_j)) / k‖`. An example is picked at most once (PyCIL), so the result is
 * an order of distinct positions 0..n−1; a prefix of it is the best smaller exemplar set (iCaRL's ReduceExemplarSet).
 */
export function herdingOrder(features: Float32Array, n: number, d: number, m: number): Int32Array {
  const phi = l2NormalizeRows(features, n, d);
  const mu = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) mu[k] += phi[i * d + k] / n;
  const acc = new Float64Array(d);
  const used = new Uint8Array(n);
  const order: number[] = [];
  for (let step = 1; step <= Math.min(m, n); step++) {
    let best = -1;
    let bestDist = Infinity;
    for (let i = 0; i < n; i++) {
      if (used[i]) continue;
      let dist = 0;
      for (let k = 0; k < d; k++) {
        const diff = mu[k] - (acc[k] + phi[i * d + k]) / step;
        dist += diff * diff;
      }
      if (dist < bestDist) {
        bestDist = dist;
        best = i;
      }
    }
    used[best] = 1;
    order.push(best);
    for (let k = 0; k < d; k++) acc[k] += phi[best * d + k];
  }
  return Int32Array.from(order);
}

/**
 * GDumb's greedy class-balanced sampler (Prabhu, Torr & Dokania 2020, Alg. 1): take every example while the
 * memory has room; once full, an example of a class with fewer than budget/|classes seen| items replaces a random
 * item of the currently largest class. `classOf(example)` gives the class; returns the new memory.
 */
export function greedyClassBalancedUpdate(
  memory: Int32Array,
  stream: ArrayLike<number>,
  classOf: (example: number) => number,
  budget: number,
  rng: DefaultRng,
): Int32Array {
  const byClass = new Map<number, number[]>();
  for (const e of memory) {
    const c = classOf(e);
    if (!byClass.has(c)) byClass.set(c, []);
    (byClass.get(c) as number[]).push(e);
  }
  let size = memory.length;
  for (let k = 0; k < stream.length; k++) {
    const e = stream[k];
    const c = classOf(e);
    if (!byClass.has(c)) byClass.set(c, []);
    const mine = byClass.get(c) as number[];
    if (size < budget) {
      mine.push(e);
      size++;
      continue;
    }
    if (mine.length >= budget / byClass.size) continue;
    // the largest class; ties go to the smallest class index, so the choice is deterministic
    let largest = -1;
    let largestSize = -1;
    for (const [cls, items] of [...byClass.entries()].sort((a, b) => a[0] - b[0])) {
      if (items.length > largestSize) {
        largest = cls;
        largestSize = items.length;
      }
    }
    const victims = byClass.get(largest) as number[];
    victims.splice(rng.integers(0, victims.length), 1);
    mine.push(e);
  }
  const classes = [...byClass.keys()].sort((a, b) => a - b);
  return Int32Array.from(classes.flatMap((c) => byClass.get(c) as number[]));
}

/** A per-class memory: class (output unit) → example indices, in priority order. */
export type ClassMemory = Map<number, Int32Array>;

/** A per-class memory as plain state (classes ascending). */
export function classMemoryToState(mem: ClassMemory): StateValue {
  const classes = [...mem.keys()].sort((a, b) => a - b);
  const offsets = new Int32Array(classes.length + 1);
  classes.forEach((c, i) => (offsets[i + 1] = offsets[i] + (mem.get(c) as Int32Array).length));
  const items = new Int32Array(offsets[classes.length]);
  classes.forEach((c, i) => items.set(mem.get(c) as Int32Array, offsets[i]));
  return [Int32Array.from(classes), offsets, items];
}

export function classMemoryFromState(v: StateValue | undefined): ClassMemory {
  const mem: ClassMemory = new Map();
  if (!Array.isArray(v)) return mem;
  const [classes, offsets, items] = v as [Int32Array, Int32Array, Int32Array];
  classes.forEach((c, i) => mem.set(c, items.slice(offsets[i], offsets[i + 1])));
  return mem;
}

/** All examples of a per-class memory, classes ascending. */
export function classMemoryExamples(mem: ClassMemory): Int32Array {
  const classes = [...mem.keys()].sort((a, b) => a - b);
  return Int32Array.from(classes.flatMap((c) => Array.from(mem.get(c) as Int32Array)));
}
