import { describe, expect, it } from 'vitest';
import { readOpenWorld } from '../../../src/core/verdict/open-world';
import { readTime, timeVerdict } from '../../../src/core/verdict/time';
import { selectBackend } from '../../../src/engine/backend';
import { captureCli } from './capture';

// The lab commands' --seeds and `verdict` (docs/verdicts.md): tiny runs on the cpu backend.
const cli = captureCli();
const ids = (v: { id: string }[]) => v.map((s) => s.id);

describe('lab commands over several seeds, with their verdict', () => {
  it('stream --protocol iid,streaming --seeds 0-2: every run, the gap and streaming − iid over seeds, the Time verdict', async () => {
    await selectBackend('cpu', { strict: true });
    const tiny = ['--dataset', 'digits', '--buckets', '3', '--per-class', '12', '--epochs', '1', '--hidden', '16', '--backend', 'cpu', '--strength', '0.2'];
    const r = await cli('stream', '--protocol', 'iid,streaming', '--seeds', '0-2', ...tiny);
    expect(r.code, r.err).toBe(0);
    const runs = r.json.runs as { seed: number; protocol: 'iid' | 'streaming'; metrics: { inDomain: number | null; nextDomain: number } }[];
    expect(runs.map((x) => [x.seed, x.protocol])).toEqual([
      [0, 'iid'],
      [0, 'streaming'],
      [1, 'iid'],
      [1, 'streaming'],
      [2, 'iid'],
      [2, 'streaming'],
    ]);
    const input = { settings: { stream: 'drift' as const, strength: 0.2, trainRatio: 0.7 }, runs };
    const reading = readTime(input);
    expect(r.json.summary.gap.values).toEqual(reading.gap!.values);
    expect(r.json.summary.streamingMinusIid.n).toBe(3);
    expect(r.json.summary.streamingMinusIid.claim).toBe(reading.lead!.claim);
    expect(r.json.verdict).toEqual(timeVerdict(input).sentences);
    expect(ids(r.json.verdict)).toEqual(expect.arrayContaining([`time-gap:${reading.gap!.outcome}`, `time-lead:${reading.lead!.claim}`]));
    expect(r.json.headline).toBe(timeVerdict(input).headline);
    // one protocol at one seed keeps the run's object, now with its verdict; the default strength is the lab's start, 0.5
    const one = await cli('stream', '--protocol', 'iid', ...tiny.filter((x, i, a) => x !== '--strength' && a[i - 1] !== '--strength'));
    expect(one.code, one.err).toBe(0);
    expect(one.json.config.strength).toBe(0.5);
    expect(ids(one.json.verdict)[0]).toMatch(/^time-gap:/);
    const bad = await cli('stream', '--protocol', 'iid,iid', ...tiny);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/lists a protocol twice/);
  }, 240_000);

  it('ood --seeds 0-1: one report per seed, the reading over seeds and the Open-world verdict', async () => {
    const r = await cli(
      'ood',
      ...['--dataset', 'digits', '--classes', '0-5', '--tasks', '3', '--strategy', 'replay', '--memory', '30', '--epochs', '1'],
      ...['--train-per-class', '30', '--test-per-class', '10', '--backend', 'cpu', '--ood', 'digits:6-9,emoji:0-3'],
      ...['--detectors', 'msp,ber', '--head-epochs', '1', '--seeds', '0-1'],
    );
    expect(r.code, r.err).toBe(0);
    expect(r.json.runs.map((x: { config: { seed: number } }) => x.config.seed)).toEqual([0, 1]);
    expect(r.json.summary.seeds).toEqual([0, 1]);
    expect(r.json.summary.detectors.map((d: { n: number }) => d.n)).toEqual([2, 2]);
    expect(r.json.summary.nearFar.n).toBe(2);
    expect(ids(r.json.verdict)).toEqual(expect.arrayContaining(['ow-ranking', 'ow-seeds-try']));
    expect(ids(r.json.verdict).some((x) => x.startsWith('ow-near:'))).toBe(true);
    // the reading is the one the verdict module computes from the runs
    const again = readOpenWorld({
      settings: { dataset: 'digits', headEpochs: 1 },
      oodKinds: { 'digits:6-9': 'near', 'emoji:0-3': 'far' },
      runs: r.json.runs.map((x: { config: { seed: number }; summary: never; accuracy: number[] }) => ({
        seed: x.config.seed,
        summary: x.summary,
        finalAccuracy: x.accuracy[2],
      })),
    });
    expect(r.json.summary.nearFar.mean).toBeCloseTo(again.nearFar!.mean, 12);
  }, 240_000);

  it('curriculum --seeds 0-1: each seed’s isolated accuracies and orders, the pairs over seeds and the Curriculum verdict', async () => {
    const tiny = ['--datasets', 'digits,emoji-food', '--train-per-class', '5', '--test-per-class', '4', '--epochs', '1', '--hidden', '16', '--backend', 'cpu'];
    const r = await cli('curriculum', '--order', 'all', '--scenario', 'cil', '--strategy', 'finetune', '--seeds', '0-1', ...tiny);
    expect(r.code, r.err).toBe(0);
    expect(r.json.seeds.map((x: { seed: number }) => x.seed)).toEqual([0, 1]);
    expect(r.json.summary.pairs).toHaveLength(1);
    expect(r.json.summary.pairs[0].deltaAcc.n).toBe(2);
    expect(r.json.summary.pairs[0].deltaAcc.mean).toBeCloseTo(
      (100 * (r.json.seeds[0].summary[0].m2iAcc - r.json.seeds[0].summary[0].i2mAcc) +
        100 * (r.json.seeds[1].summary[0].m2iAcc - r.json.seeds[1].summary[0].i2mAcc)) /
        2,
      3,
    );
    expect(ids(r.json.verdict)).toEqual(expect.arrayContaining(['cu-lead:finetune:cil:too-few', 'cu-seeds-try']));
    const one = await cli('curriculum', '--order', 'm2i', '--scenario', 'cil', '--strategy', 'finetune', '--seed', '0', ...tiny);
    expect(one.code, one.err).toBe(0);
    expect(Array.isArray(one.json.verdict)).toBe(true);
    expect(one.json.runs).toHaveLength(1);
  }, 240_000);
});
