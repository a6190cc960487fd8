/**
 * The 'pytorch' initialisation (models.ts) against what torch itself draws: tests/fixtures/pytorch-init.json,
 * made by scripts/peer/make-init-fixture.py with Debian's python3-torch (torch's nn.Linear / nn.Conv2d
 * reset_parameters, 20 initialisations per layer). The bound is torch's own number; the variance and max |value| of
 * our draws are compared with torch's draws.
 */
import { describe, expect, it } from 'vitest';
import fixture from '../../fixtures/pytorch-init.json';
import { initLimit, initWeights, paramInfo, type NetworkSpec } from '../../../src/engine/models';

interface Moments {
  bound: number;
  variance: number;
  mean: number;
  maxAbs: number;
  n: number;
}
interface Layer {
  name: string;
  fanIn: number;
  weight: Moments;
  bias: Moments;
}

const mlp: NetworkSpec = { kind: 'mlp', inputShape: [28, 28, 1], outputs: 6, hidden: [256, 128], init: 'pytorch' };
const cnn: NetworkSpec = { kind: 'cnn', inputShape: [7, 7, 3], outputs: 5, filters: [4, 8], dense: 12, init: 'pytorch' };

function moments(arrays: Float32Array[]): { mean: number; variance: number; maxAbs: number; n: number } {
  let n = 0;
  let s = 0;
  let maxAbs = 0;
  for (const a of arrays) for (const v of a) ((s += v), n++, (maxAbs = Math.max(maxAbs, Math.abs(v))));
  const mean = s / n;
  let ss = 0;
  for (const a of arrays) for (const v of a) ss += (v - mean) ** 2;
  return { mean, variance: ss / (n - 1), maxAbs, n };
}

describe("the 'pytorch' initialisation matches torch's nn.Linear / nn.Conv2d", () => {
  for (const [label, spec, layers] of [
    ['MLP 784-256-128-6', mlp, fixture.mlp.layers],
    ['CNN 7×7×3, filters 4, 8, dense 12', cnn, fixture.cnn.layers],
  ] as const) {
    it(`${label}: torch's bounds, fan-ins and variances, weights and biases alike`, () => {
      const info = paramInfo(spec);
      const draws = Array.from({ length: fixture.draws }, (_, s) => initWeights(spec, s));
      (layers as readonly Layer[]).forEach((layer, l) => {
        for (const [k, which] of [
          [2 * l, layer.weight],
          [2 * l + 1, layer.bias],
        ] as const) {
          const p = info[k];
          expect(p.name.startsWith(layer.name)).toBe(true);
          expect(p.fanIn).toBe(layer.fanIn);
          // torch's own bound, to float precision
          expect(initLimit(p)).toBeCloseTo(which.bound, 12);
          const m = moments(draws.map((d) => d[k]));
          expect(m.n).toBe(which.n);
          expect(m.maxAbs).toBeLessThanOrEqual(which.bound);
          // a uniform on ±b: variance b²/3; sampling error of the variance is about b²/3 · √(0.8/n)
          const tol = 5 * (which.bound ** 2 / 3) * Math.sqrt(0.8 / m.n);
          expect(Math.abs(m.variance - which.bound ** 2 / 3)).toBeLessThan(tol);
          expect(Math.abs(m.variance - which.variance)).toBeLessThan(2 * tol);
          expect(Math.abs(m.mean)).toBeLessThan(5 * Math.sqrt(which.bound ** 2 / 3 / m.n));
          if (m.n > 1000) expect(m.maxAbs).toBeGreaterThan(0.99 * which.bound);
        }
      });
    });
  }

  it('is seeded (same seed, same weights; another seed, others) and differs from the default scheme', () => {
    const a = initWeights(mlp, 3);
    expect(initWeights(mlp, 3)).toEqual(a);
    expect(initWeights(mlp, 4)[0]).not.toEqual(a[0]);
    const { init: _, ...plain } = mlp;
    const d = initWeights(plain, 3);
    // the default scheme: He-uniform √(6/784) hidden, zero biases; PyTorch's biases are not zero
    expect(d[1].every((v) => v === 0)).toBe(true);
    expect(a[1].some((v) => v !== 0)).toBe(true);
    const maxAbs = (x: Float32Array): number => x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(maxAbs(d[0])).toBeGreaterThan(2 * maxAbs(a[0]));
    expect(paramInfo(plain).map((p) => p.init)).toEqual(['he', 'zeros', 'he', 'zeros', 'glorot', 'zeros']);
    expect(paramInfo(mlp).every((p) => p.init === 'uniform-fan-in')).toBe(true);
  });
});
