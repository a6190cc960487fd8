import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import stats from '../../fixtures/stats.json';
import { main } from '../../../src/cli/main';

const fx = stats as any;
let out = '';
let err = '';
const dir = mkdtempSync(join(tmpdir(), 'cil-stats-'));

function file(name: string, content: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
}

beforeEach(() => {
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
});
afterEach(() => vi.restoreAllMocks());

async function cli(...argv: string[]): Promise<{ code: number; json: any; err: string }> {
  out = '';
  err = '';
  const code = await main(argv);
  let json: any = null;
  try {
    json = JSON.parse(out);
  } catch {
    json = out;
  }
  return { code, json, err };
}

const close = (a: number, b: number, tol: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tol);

describe('cil-lab stats --values', () => {
  it('moments, Box-Cox λ and the three normality tests before and after Box-Cox match scipy', async () => {
    const s = fx.samples.find((x: any) => x.name === 'final accuracies (fractions) n=90');
    const r = await cli('stats', '--values', file('acc.json', s.values));
    expect(r.code).toBe(0);
    const j = r.json;
    expect(j.n).toBe(90);
    close(j.moments.mean, s.moments.mean, 1e-15);
    close(j.moments.std, s.moments.std, 1e-15);
    close(j.moments.sampleStd, s.moments.sampleStd, 1e-15);
    expect([j.moments.min, j.moments.max]).toEqual([s.moments.min, s.moments.max]);
    close(j.boxcox.lambda, s.boxcox.lambda, s.boxcox.lambdaTolerance);
    expect(j.boxcox.shift).toBe(0);
    close(j.normality.before.shapiro.pvalue, s.raw.shapiro.pvalue, 1e-6);
    close(j.normality.before.shapiro.statistic, s.raw.shapiro.statistic, 1e-9);
    close(j.normality.before.normaltest.pvalue, s.raw.normaltest.pvalue, 1e-6);
    close(j.normality.before.normaltest.skewtest.statistic, s.raw.normaltest.skew.statistic, 1e-9);
    close(j.normality.before.kstest.pvalue, s.raw.ks.population.pvalue, 1e-6);
    close(j.normality.after.shapiro.pvalue, s.after.shapiro.pvalue, 1e-6);
    close(j.normality.after.normaltest.pvalue, s.after.normaltest.pvalue, 1e-6);
    close(j.normality.after.kstest.pvalue, s.after.ks.population.pvalue, 1e-6);
    expect(j.notes).toEqual([]);
  });
  it('shifts non-positive values before Box-Cox and says so', async () => {
    const s = fx.samples.find((x: any) => x.name === 'accuracies with zeros n=30');
    const r = await cli('stats', '--values', file('zeros.json', s.values));
    expect(r.code).toBe(0);
    expect(r.json.boxcox.shift).toBe(s.boxcox.shift);
    close(r.json.boxcox.lambda, s.boxcox.lambda, s.boxcox.lambdaTolerance);
    expect(r.json.notes.join(' ')).toMatch(/shifted by 0\.28/);
  });
  it('passes on scipy-style warnings (kurtosis test below n = 20)', async () => {
    const s = fx.samples.find((x: any) => x.name === 'normal n=10');
    const r = await cli('stats', '--values', file('n10.json', s.values));
    expect(r.code).toBe(0);
    expect(r.json.notes.some((n: string) => /n ≥ 20/.test(n))).toBe(true);
  });
  it('too few values: names the test and how many it needs (exit 2)', async () => {
    const r = await cli('stats', '--values', file('five.json', [0.1, 0.2, 0.3, 0.4, 0.5]));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /5 values are too few for the normality tests: the D'Agostino–Pearson K² test \(normaltest\) needs at least 8 values, Shapiro–Wilk at least 3/,
    );
  });
  it('bad input: not an array, non-numbers, not JSON, missing file, equal values, empty (exit 2)', async () => {
    const cases: [unknown, RegExp][] = [
      [{ values: [1, 2] }, /holds object, not an array/],
      [[0.5, '0.6', 0.7], /item 1 of ".*" is "0\.6", not a finite number/],
      [[0.5, null], /item 1 of ".*" is null, not a finite number/],
      ['[0.5, 0.6', /is not valid JSON/],
      [[], /is an empty array/],
      [new Array(9).fill(0.7), /all 9 values are equal \(0\.7\)/],
    ];
    for (const [content, message] of cases) {
      const r = await cli('stats', '--values', file('bad.json', content));
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(out).toBe('');
    }
    const missing = await cli('stats', '--values', join(dir, 'nope.json'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/Cannot read the --values file ".*nope\.json": ENOENT/);
  });
});

describe('cil-lab stats --truth --estimate', () => {
  it('JSD (bits) and W1 (points) of the estimate’s Gaussian against the truth, as the numpy reference', async () => {
    const c = fx.quality.find((x: any) => x.name === 'EDGE-like extremes + median');
    const r = await cli('stats', '--truth', file('truth.json', c.truth), '--estimate', file('est.json', c.estimate));
    expect(r.code).toBe(0);
    close(r.json.jsd, c.jsd, 1e-9);
    close(r.json.w1, c.w1, 1e-9);
    close(r.json.w1Raw, c.w1Raw, 1e-11);
    close(r.json.estimate.mean, c.mean, 1e-15);
    close(r.json.estimate.std, c.std, 1e-15);
    expect(r.json.truth.n).toBe(c.truth.length);
    expect(r.json.units.jsd).toBe('bits');
  });
  it('a truth without spread gives jsd null with a note; a single estimate value is a point mass', async () => {
    const r = await cli('stats', '--truth', file('t1.json', [0.5]), '--estimate', file('e1.json', [0.52]));
    expect(r.code).toBe(0);
    expect(r.json.jsd).toBeNull();
    close(r.json.w1, 2, 1e-12);
    expect(r.json.notes.join(' ')).toMatch(/no spread/);
  });
  it('needs both files, and not together with --values (exit 2)', async () => {
    const t = file('t.json', [0.1, 0.2]);
    expect((await cli('stats', '--truth', t)).err).toMatch(/--truth needs --estimate F too/);
    expect((await cli('stats', '--estimate', t)).err).toMatch(/--estimate needs --truth F too/);
    expect((await cli('stats', '--values', t, '--truth', t)).err).toMatch(/not both/);
    const none = await cli('stats');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/Give --values F .* or --truth F --estimate F/);
    const bad = await cli('stats', '--truth', t, '--estimate', file('e.json', [0.1, 'x']));
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--estimate: item 1/);
  });
  it('is listed in the help', async () => {
    const r = await cli('--help');
    expect(r.json).toMatch(/cil-lab stats --values F\.json/);
    expect(r.json).toMatch(/cil-lab stats --truth F\.json --estimate F\.json/);
  });
});
