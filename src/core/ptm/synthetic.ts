/**
 * Synthetic frozen features for tests and benchmarks (docs/science.md §9): Gaussian class clusters, so the
 * pre-trained methods and their ground truth run without an encoder.
 *
 * Class c has centre μ_c = separation · z_c with z_c ~ N(0, I_d); each row is μ_c + ε, ε ~ N(0, I_d). Two class
 * means are about separation·√(2d) apart against a within-class spread of 1 along any direction, so a nearest-mean
 * classifier confuses a pair of classes with probability about Φ(−separation·√(d/2)): separation 0.1 in 512
 * dimensions gives ≈ 5 %, enough for orderings to matter to a trained head and not to a prototype method.
 *
 * Every draw is numpy's `RandomState(seed).standard_normal`, in this order: the C × d centres, then each class's
 * training rows, then each class's test rows; rows are stored in that order (train rows of class 0, 1, …, then test
 * rows), as float32 like an encoder's output. A script can rebuild the same set with numpy.
 */
import type { FeatureSet } from '../features/feature-set';
import { checkFeatureSet } from '../features/feature-set';
import { createRandomState } from '../random/random-state';

export interface SyntheticFeatureSpec {
  classes: number;
  dims: number;
  trainPerClass: number;
  testPerClass: number;
  /** spread of the class centres in units of the within-class spread (see the header) */
  separation: number;
  seed: number;
}

export function syntheticFeatures(spec: SyntheticFeatureSpec): FeatureSet {
  const { classes, dims, trainPerClass, testPerClass, separation, seed } = spec;
  const rs = createRandomState(seed);
  const centres = new Float64Array(classes * dims);
  for (let i = 0; i < centres.length; i++) centres[i] = separation * rs.standardNormal();
  const n = classes * (trainPerClass + testPerClass);
  const features = new Float32Array(n * dims);
  const labels = new Int32Array(n);
  const split = new Uint8Array(n);
  let row = 0;
  for (const [part, perClass] of [
    [0, trainPerClass],
    [1, testPerClass],
  ] as const) {
    for (let c = 0; c < classes; c++) {
      for (let k = 0; k < perClass; k++) {
        for (let t = 0; t < dims; t++) features[row * dims + t] = centres[c * dims + t] + rs.standardNormal();
        labels[row] = c;
        split[row] = part;
        row++;
      }
    }
  }
  return checkFeatureSet({
    features,
    n,
    d: dims,
    labels,
    split,
    classNames: Array.from({ length: classes }, (_, c) => `class ${c}`),
  });
}
