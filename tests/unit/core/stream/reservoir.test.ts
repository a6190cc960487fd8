import { describe, expect, it } from 'vitest';
import { createDefaultRng } from '../../../../src/core/random/default-rng';
import {
  admissionProbability,
  biasedReservoir,
  bufferComposition,
  checkReservoirSizes,
  formatAlpha,
  parseAlpha,
  ReservoirError,
  reservoirTrials,
} from '../../../../src/core/stream/reservoir';
import { fx } from './fixture';

describe('Alg. 1 (biased reservoir sampling)', () => {
  it('gives numpy’s buffers draw for draw on the fixture cases', () => {
    expect(fx.reservoirExact.length).toBeGreaterThan(5);
    for (const c of fx.reservoirExact) {
      const got = biasedReservoir(c.sizes, c.k, c.alpha, createDefaultRng(c.seed)).map((b) => Array.from(b));
      expect(got, JSON.stringify(c.sizes)).toEqual(c.buffers);
    }
  });

  it('matches numpy’s mean final-buffer shares from a different seed, within 5 standard errors of the difference', () => {
    const T = 1000;
    for (const c of fx.reservoirTrials) {
      const r = reservoirTrials(c.sizes, c.k, c.alpha, T, createDefaultRng(c.seed + 1000));
      c.shares.forEach((s, j) => {
        // each mean has standard error σ/√n; the difference of two independent means has √(σ²/T + σ²/T_numpy)
        const se = Math.sqrt(c.shareStd[j] ** 2 / T + c.shareStd[j] ** 2 / c.trials);
        const tol = Math.max(5 * se, 1e-12);
        expect(Math.abs(r.shares[j] - s), `${formatAlpha(c.alpha)} bucket ${j}: ${r.shares[j]} vs ${s} (tol ${tol})`).toBeLessThanOrEqual(tol);
      });
      expect(r.sizes.every((n) => n === c.k)).toBe(true);
    }
  });

  it('α = 1 is classic reservoir sampling: equal buckets end with about equal shares', () => {
    const r = reservoirTrials([200, 200, 200, 200], 100, { kind: 'fixed', value: 1 }, 400, createDefaultRng(3));
    for (const s of r.shares) expect(s).toBeCloseTo(0.25, 1);
  });

  it('α = 2 on five buckets of k: the analytic mean shares 0, 0.1, 0.2, 0.3, 0.4', () => {
    // admission α·k/i = 1, 2/3, 1/2, 2/5 for buckets 2..5: bucket 5 keeps 0.4 of the buffer, bucket 4 0.5·0.6 = 0.3,
    // bucket 3 (2/3)·0.5·0.6 = 0.2, bucket 2 (1/3)·0.5·0.6 = 0.1, bucket 1 nothing (replaced whole at bucket 2)
    const r = reservoirTrials([100, 100, 100, 100, 100], 100, { kind: 'fixed', value: 2 }, 500, createDefaultRng(21));
    [0, 0.1, 0.2, 0.3, 0.4].forEach((want, j) => expect(Math.abs(r.shares[j] - want), `bucket ${j}`).toBeLessThan(0.01));
    expect(r.shares[0]).toBe(0);
  });

  it('dynamic c = 1 with buckets of size ≥ k is FIFO: the buffer is the newest k samples', () => {
    const sizes = [30, 30, 30];
    const bufs = biasedReservoir(sizes, 30, { kind: 'dynamic', c: 1 }, createDefaultRng(9));
    expect([...bufs[2]].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, q) => 60 + q));
    // and with k smaller than a bucket: a uniform k of the newest bucket only
    const small = biasedReservoir(sizes, 10, { kind: 'dynamic', c: 1 }, createDefaultRng(9));
    expect(bufferComposition(small[2], sizes)).toEqual([0, 0, 10]);
    expect(new Set(small[2]).size).toBe(10);
  });

  it('a huge fixed α admits everything (FIFO-like); a tiny α keeps the first bucket', () => {
    const sizes = [40, 40, 40];
    const big = biasedReservoir(sizes, 20, { kind: 'fixed', value: 1000 }, createDefaultRng(1));
    expect(bufferComposition(big[2], sizes)).toEqual([0, 0, 20]);
    const tiny = biasedReservoir(sizes, 20, { kind: 'fixed', value: 1e-9 }, createDefaultRng(1));
    expect(bufferComposition(tiny[2], sizes)).toEqual([20, 0, 0]);
    expect([...tiny[2]].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, q) => q));
  });

  it('never holds more than k, never a sample twice, and fills before it replaces', () => {
    const sizes = [3, 4, 50, 1, 0, 20];
    const bufs = biasedReservoir(sizes, 10, { kind: 'fixed', value: 2 }, createDefaultRng(5));
    expect(bufs.map((b) => b.length)).toEqual([3, 7, 10, 10, 10, 10]);
    for (const b of bufs) expect(new Set(b).size).toBe(b.length);
    expect([...bufs[1]].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('admission probability is α·k/i for fixed α and c for dynamic α', () => {
    expect(admissionProbability({ kind: 'fixed', value: 2 }, 100, 400)).toBe(0.5);
    expect(admissionProbability({ kind: 'dynamic', c: 0.25 }, 100, 400)).toBe(0.25);
  });

  it('parses and rejects α', () => {
    expect(parseAlpha('2')).toEqual({ kind: 'fixed', value: 2 });
    expect(parseAlpha('dynamic:0.75')).toEqual({ kind: 'dynamic', c: 0.75 });
    expect(formatAlpha(parseAlpha('dynamic:1'))).toBe('dynamic:1');
    for (const bad of ['', '-1', '0', 'x', 'dynamic:0', 'dynamic:1.5', 'dynamic:']) expect(() => parseAlpha(bad), bad).toThrow(ReservoirError);
    expect(() => biasedReservoir([10], 0, { kind: 'fixed', value: 1 }, createDefaultRng(0))).toThrow(/buffer size k/);
    expect(() => biasedReservoir([10, -1], 5, { kind: 'fixed', value: 1 }, createDefaultRng(0))).toThrow(/Bucket size 1/);
  });
});

describe('Alg. 1: every size bounded before anything is drawn (limits.ts)', () => {
  const fixed = { kind: 'fixed', value: 1 } as const;
  const refuses = (sizes: number[], k: number, trials: number, re: RegExp) => {
    const t0 = performance.now();
    expect(() => checkReservoirSizes(sizes, k, trials)).toThrow(re);
    // reservoirTrials checks first too: it refuses as fast, allocating nothing
    expect(() => reservoirTrials(sizes, k, fixed, trials, createDefaultRng(0))).toThrow(ReservoirError);
    expect(performance.now() - t0).toBeLessThan(200);
  };
  it('20 000 buckets (a 3 GB composition; it ran out of heap) are refused, 1 000 are not', () => {
    refuses(Array(20_000).fill(10), 10, 1, /^At most 1 000 buckets .* got 20 000\.$/);
    expect(() => checkReservoirSizes(Array(1000).fill(10), 10, 1)).not.toThrow();
  });
  it('a k beyond the bound, or not a safe whole number, is refused with the bound', () => {
    refuses([100, 100], 1e20, 1, /^The buffer size k must be a whole number from 1 to 100 000; got 1\.00e\+20\.$/);
    refuses([100, 100], 100_001, 1, /from 1 to 100 000; got 100001\./);
    expect(() => checkReservoirSizes([100, 100], 100_000, 1)).not.toThrow();
  });
  it('trials and the work of all trials are bounded (huge buckets or trial counts used to run on)', () => {
    refuses([100, 100], 100, 1_000_001, /^The number of trials must be a whole number from 1 to 1 000 000/);
    refuses([1e9, 1e9], 100, 1, /^One call runs at most 250 000 000 steps of Alg\. 1 .*need 2 000 000 200: use fewer trials or smaller buckets\.$/);
    refuses([100, 100], 100, 1_000_000, /need 400 000 000/);
    refuses(
      Array(1000).fill(1000),
      100_000,
      1,
      /^A trial keeps every bucket's buffer, at most 50 000 000 positions in all; 1 000 buckets × a buffer of 100 000 would keep 100 000 000/,
    );
  });
  it('the composition of many buckets is counted as before (binary search over the offsets)', () => {
    const sizes = [3, 0, 2, 5, 0, 1];
    const buffer = [0, 2, 3, 4, 5, 9, 10];
    // positions 0–2 are bucket 0, 3–4 bucket 2 (bucket 1 is empty), 5–9 bucket 3, 10 bucket 5
    expect(bufferComposition(buffer, sizes)).toEqual([2, 0, 2, 2, 0, 1]);
  });
});
