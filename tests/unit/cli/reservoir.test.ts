import { describe, expect, it } from 'vitest';
import { captureCli } from './capture';
import { fx } from '../core/stream/fixture';

const cli = captureCli();

describe('cil-lab reservoir', () => {
  it('prints numpy’s mean shares for the same seed and trials (the same draws)', async () => {
    const c = fx.reservoirTrials[2]; // α = 2 on five buckets of 100, k = 100
    const trials = 200;
    const r = await cli('reservoir', '--bucket-sizes', c.sizes.join(','), '--k', String(c.k), '--alpha', '2', '--trials', String(trials), '--seed', '11');
    expect(r.code, r.err).toBe(0);
    expect(r.json.sizes).toEqual([100, 100, 100, 100, 100]);
    expect(r.json.shares.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1, 12);
    // a bias towards recent buckets: shares grow with the bucket index, and are close to numpy's 4000-trial means
    for (let j = 2; j < 5; j++) expect(r.json.shares[j]).toBeGreaterThan(r.json.shares[j - 1]);
    expect(r.json.shares[0]).toBe(0); // α·k/i = 1 at bucket 1: the whole first bucket is replaced
    c.shares.forEach((s, j) => expect(Math.abs(r.json.shares[j] - s)).toBeLessThan(5 * c.shareStd[j] * Math.sqrt(1 / trials + 1 / c.trials) + 1e-12));
  });
  it('equals the exact fixture buffers’ composition for one trial', async () => {
    const c = fx.reservoirExact[1];
    const alpha = c.alpha.kind === 'fixed' ? String(c.alpha.value) : `dynamic:${c.alpha.c}`;
    const r = await cli('reservoir', '--bucket-sizes', c.sizes.join(','), '--k', String(c.k), '--alpha', alpha, '--trials', '1', '--seed', String(c.seed));
    expect(r.code, r.err).toBe(0);
    const last = c.buffers[c.buffers.length - 1];
    const ends = c.sizes.map((_, t) => c.sizes.slice(0, t + 1).reduce((a, b) => a + b, 0));
    const counts = c.sizes.map((_, t) => last.filter((p) => p < ends[t] && p >= (t ? ends[t - 1] : 0)).length);
    expect(r.json.counts).toEqual(counts);
    expect(r.json.shares).toEqual(counts.map((n) => n / last.length));
  });
  it('dynamic:1 with buckets ≥ k is FIFO', async () => {
    const r = await cli('reservoir', '--bucket-sizes', '50,50,50', '--k', '50', '--alpha', 'dynamic:1', '--trials', '3', '--seed', '0');
    expect(r.code, r.err).toBe(0);
    expect(r.json.shares).toEqual([0, 0, 1]);
  });
  it('bad input: one line on stderr, exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--k', '5', '--alpha', '1'], /Give --bucket-sizes/],
      [['--bucket-sizes', '10,x', '--k', '5', '--alpha', '1'], /"x" is not a whole number/],
      [['--bucket-sizes', '10,-3', '--k', '5', '--alpha', '1'], /negative size/],
      [['--bucket-sizes', '10,10', '--alpha', '1'], /Give --k/],
      [['--bucket-sizes', '10,10', '--k', '0', '--alpha', '1'], /--k must be at least 1/],
      [['--bucket-sizes', '10,10', '--k', '5'], /Give --alpha/],
      [['--bucket-sizes', '10,10', '--k', '5', '--alpha', 'dynamic:2'], /0 < C ≤ 1/],
      [['--bucket-sizes', '10,10', '--k', '5', '--alpha=-1'], /positive number/],
      [['--bucket-sizes', '10,10', '--k', '5', '--alpha', '1', '--trials', '0'], /--trials must be at least 1/],
      [['--bucket-sizes', '10,10', '--k', '5', '--alpha', '1', '--seed=-2'], /--seed must be at least 0/],
    ];
    for (const [args, re] of cases) {
      const r = await cli('reservoir', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(re);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});
