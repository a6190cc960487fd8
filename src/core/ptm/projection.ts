/**
 * RanPAC's random projection (McDonnell et al., "RanPAC: Random Projections and Pre-trained Models for Continual
 * Learning", NeurIPS 2023; its code `RanPAC.py` setup_RP / replace_fc): W is d × M with independent N(0, 1)
 * entries, and a feature row x becomes h = ReLU(x W). With M = 0 there is no projection: h = x, as in the code.
 *
 * W is numpy's `np.random.RandomState(seed).standard_normal((d, M))`, filled row by row, so a researcher can rebuild
 * it in Python (the code draws it with `torch.randn`; any seeded normal draw plays the same part).
 */
import { createRandomState } from '../random/random-state';
import { multiplyABt, transpose } from './linalg';

/** W (d × M, row-major) of the seed. */
export function projectionMatrix(d: number, m: number, seed: number): Float64Array {
  const rs = createRandomState(seed);
  const w = new Float64Array(d * m);
  for (let i = 0; i < w.length; i++) w[i] = rs.standardNormal();
  return w;
}

/** ReLU(X W) for X (n × d): n × M. With m = 0, a copy of X. */
export function projectRows(x: Float64Array, n: number, d: number, w: Float64Array, m: number): Float64Array {
  if (m === 0) return x.slice();
  const h = multiplyABt(x, n, transpose(w, d, m), m, d);
  for (let i = 0; i < h.length; i++) if (h[i] < 0) h[i] = 0;
  return h;
}
