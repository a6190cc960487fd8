import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { presetFlags } from '../../../src/cli/cpcf';
import { defaultConfig, validateConfig } from '../../../src/core/config/schema';
import { encodeConfigToHash } from '../../../src/core/config/url-codec';
import { dcorPermutationTest, pooledDcorPermutationTest } from '../../../src/core/stats/dcor-permutation';

let out = '';
let err = '';
beforeEach(() => {
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
});
afterEach(() => vi.restoreAllMocks());

describe('cil-lab cpcf', () => {
  it('trains on digits (base task 0–4, then one class per task) and prints the CPCF series per step', async () => {
    const code = await main([
      'cpcf',
      '--dataset',
      'digits',
      '--classes',
      '0-9',
      '--task-sizes',
      '5,1,1,1,1,1',
      '--strategy',
      'finetune',
      '--epochs',
      '2',
      '--first-epochs',
      '3',
      '--seed',
      '0',
      '--backend',
      'cpu',
      '--calibration-ratio',
      '0.2',
      '--alpha',
      '0.1',
    ]);
    expect(err).not.toMatch(/cil-lab:/);
    expect(code).toBe(0);
    const r = JSON.parse(out);
    // K = 6 tasks → CPCF_j for j = 2..6: five points
    for (const key of ['cpcf', 'aPrev', 'aNew', 'coverage', 'q', 'qInfinite']) expect(r[key]).toHaveLength(5);
    for (const c of r.cpcf) expect(c).toBeGreaterThanOrEqual(1); // APS sets hold at least one class
    for (const c of r.coverage) expect(c >= 0 && c <= 1).toBe(true);
    // a_prev,j and a_new,j are the accuracy matrix's own numbers
    expect(r.aNew[0]).toBeCloseTo(r.matrix[1][1], 12);
    expect(r.aPrev[0]).toBeCloseTo(r.matrix[1][0], 12);
    expect(r.calibrationCounts.every((n: number) => n > 0)).toBe(true);
    expect(r.dcor).toBeGreaterThanOrEqual(0);
    expect(Object.keys(r.omega)).toEqual(expect.arrayContaining(['omegaBase', 'omegaNew', 'omegaAll', 'omegaPrev']));
    // one seed: the summary is the exact permutation test of this run's 5 points; not the paper's setup
    expect(r.summary.seeds).toEqual([0]);
    expect(r.summary.dcor).toEqual({ mean: r.dcor, sd: null, values: [r.dcor] });
    expect(r.summary.permutation).toMatchObject({ exact: true, resamples: null, points: 5 });
    expect(r.summary.permutation.p).toBeCloseTo(dcorPermutationTest(r.cpcf, r.aPrev).p, 12);
    expect(r.summary.paper).toEqual({ dcor: 0.4996, table: 'II', column: 'MNIST', model: 'MLP', key: 0.2 }); // calibration 0.2 at α 0.1: Table II row 0.20
    expect(r.summary.comparable).toBe(false);
    expect(r.summary.notComparable).toEqual(expect.arrayContaining(['one seed: no spread', 'epochs 3 / 2, the paper 8 / 3']));
    expect(err).toMatch(/note: dCor\(CPCF, a_prev\) [0-9.]+ \(1 seed\), permutation p (=|<) [0-9.]+ \(exact\)/);
    // the Forgetting lab's verdict in the same words, and dCor's chance band for 5 points
    expect(r.verdict.map((x: { id: string }) => x.id)).toEqual(expect.arrayContaining(['fg-comparability:finetune', 'fg-seeds-try']));
    expect(r.verdict.some((x: { id: string }) => /^fg-paper:finetune:/.test(x.id))).toBe(true);
    expect(r.summary.dcorNull).toMatchObject({ points: 5, draws: 20000, seed: 0 });
    expect(r.summary.dcorNull.mean).toBeCloseTo(0.666, 2);
    expect(r.summary.unstated).toEqual(expect.arrayContaining(['the batch size (ours 64)', 'the number of seeds (ours 1)']));
    expect(r.summary.pearson).toHaveLength(1);
  });
  it('--preset digits --seeds 0-1: runs each seed and prints dCor mean ± sd, the pooled permutation p and the paper figure', async () => {
    const code = await main([
      'cpcf',
      '--preset',
      'digits',
      '--strategy',
      'ewc',
      '--seeds',
      '0-1',
      '--epochs',
      '1',
      '--first-epochs',
      '2',
      '--train-per-class',
      '20',
      '--test-per-class',
      '5',
      '--backend',
      'cpu',
    ]);
    expect(err).not.toMatch(/cil-lab:/);
    expect(code).toBe(0);
    const r = JSON.parse(out);
    expect(r.runs).toHaveLength(2);
    expect(r.runs.map((x: { seed: number }) => x.seed)).toEqual([0, 1]);
    // the preset's settings, the flags given winning
    expect(r.runs[0].config).toMatchObject({ lr: 2e-5, batchSize: 64, epochs: 1, firstTaskEpochs: 2, head: 'all' });
    expect(r.runs[0].tasks).toEqual([[0, 1, 2, 3, 4], [5], [6], [7], [8], [9]]);
    const values = r.runs.map((x: { dcor: number }) => x.dcor);
    expect(r.summary.dcor.values).toEqual(values);
    expect(r.summary.dcor.mean).toBeCloseTo((values[0] + values[1]) / 2, 12);
    expect(r.summary.dcor.sd).toBeCloseTo(Math.abs(values[0] - values[1]) / Math.SQRT2, 12);
    const pooled = pooledDcorPermutationTest(
      r.runs.map((x: { cpcf: number[]; aPrev: number[] }) => ({ x: x.cpcf, y: x.aPrev })),
      { resamples: 9999, seed: 0 },
    );
    expect(r.summary.permutation).toEqual({ p: pooled.p, exact: false, resamples: 9999, nullMean: pooled.nullMean, points: 5 });
    expect(r.summary.baseAccuracy.mean).toBeCloseTo((r.runs[0].matrix[0][0] + r.runs[1].matrix[0][0]) / 2, 12);
    expect(r.summary.paper).toEqual({ dcor: 0.6754, table: 'II', column: 'MNIST', model: 'EWC', key: 0.1 });
    expect(r.summary.comparable).toBe(false);
    expect(r.summary.notComparable[0]).toMatch(/different dataset: 8×8 digits/);
    expect(r.summary.notComparable).toContain('less data: 20 training images per class, the paper ≈6000');
    expect(r.summary.paperNote).toMatch(/does not say what its dCor is computed over/);
    // the preset's EWC is the paper's single-penalisation one, not the engine's default (multi)
    expect(r.runs[0].config.strategyOptions).toMatchObject({ mode: 'single', lambda: 1000 });
  }, 180_000);
  it('a paper preset with --strategy ewc trains single-penalisation EWC with λ = 1000; --strategy-options keys win one by one', () => {
    for (const id of ['digits', 'fashion', 'fashion-paper']) {
      expect(presetFlags(id, { strategy: 'ewc' })['strategy-options']).toBe('mode=single,lambda=1000');
    }
    expect(presetFlags('fashion-paper', { strategy: 'ewc', 'strategy-options': 'mode=multi' })['strategy-options']).toBe('lambda=1000,mode=multi');
    expect(presetFlags('fashion-paper', { strategy: 'ewc', 'strategy-options': 'lambda=50' })['strategy-options']).toBe('mode=single,lambda=50');
    expect(presetFlags('fashion-paper', { strategy: 'finetune' })['strategy-options']).toBeUndefined();
  });
  it("a link's RAPS λ and k_reg (no flag sets them) are the report's", async () => {
    const base = defaultConfig();
    const r = validateConfig({
      ...base,
      lab: 'forgetting',
      dataset: { id: 'digits' },
      classes: [0, 1, 2, 3],
      taskSizes: [2, 1, 1],
      data: { trainPerClass: 30, testPerClass: 20 },
      training: { ...base.training, epochs: 1 },
      conformal: { ...base.conformal, score: 'raps', raps: { lambda: 0.05, kReg: 2 } },
    });
    expect(r.errors).toEqual([]);
    const code = await main(['cpcf', '--link', `http://x/${encodeConfigToHash(r.config)}`, '--backend', 'cpu']);
    expect(err).not.toMatch(/cil-lab:/);
    expect(code).toBe(0);
    const got = JSON.parse(out);
    expect(got.score).toBe('raps');
    expect(got.raps).toEqual({ lambda: 0.05, kReg: 2 });
  });

  it('rejects an unknown preset and bad --seeds with exit 2', async () => {
    expect(await main(['cpcf', '--preset', 'grid'])).toBe(2);
    expect(err).toMatch(/Unknown --preset "grid": use digits, fashion, fashion-paper/);
    err = '';
    expect(await main(['cpcf', '--dataset', 'digits', '--tasks', '5', '--seeds', '3-1'])).toBe(2);
    expect(err).toMatch(/--seeds: range "3-1" runs backwards/);
  });
  it('rejects α outside (0, 1), an unknown score and an unknown head with exit 2', async () => {
    expect(await main(['cpcf', '--dataset', 'digits', '--tasks', '5', '--alpha', '1.5'])).toBe(2);
    expect(err).toMatch(/--alpha must be a number strictly between 0 and 1/);
    err = '';
    expect(await main(['cpcf', '--dataset', 'digits', '--tasks', '5', '--score', 'xyz'])).toBe(2);
    expect(err).toMatch(/Unknown --score "xyz"/);
    err = '';
    expect(await main(['cpcf', '--dataset', 'digits', '--tasks', '5', '--head', 'half'])).toBe(2);
    expect(err).toMatch(/Unknown --head "half": use seen or all/);
  });
});
