/**
 * `cil-lab run --orderings all|N`: a ground truth from the command line on the fast path. Its accuracy
 * matrices equal the one-by-one runs' (`--fast off`), it says what it trained, and its output goes straight into
 * `cil-lab analyze --results`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureCli } from './capture';

const cli = captureCli();
const SMALL = [
  '--dataset',
  'fashion-mnist',
  '--classes',
  '0-5',
  '--tasks',
  '3',
  '--train-per-class',
  '20',
  '--test-per-class',
  '10',
  '--epochs',
  '1',
  '--hidden',
  '16',
  '--backend',
  'cpu',
];

describe('cil-lab run --orderings', () => {
  it('all 90 orderings on the fast path equal the one-by-one runs, and analyze reads the output', async () => {
    const fast = await cli('run', ...SMALL, '--orderings', 'all');
    expect(fast.code).toBe(0);
    expect(fast.json.runs.length).toBe(90);
    expect(fast.json.training).toMatchObject({ tasksTrained: 195, naiveTasks: 270 });
    expect(fast.json.training.path).toMatch(/fast/);
    // optimiser steps counted as trained: each of the 195 prefixes once, 1 epoch over its 40 images
    const run0 = fast.json.runs[0];
    expect(run0.trainCounts).toEqual([40, 40, 40]);
    expect(fast.json.training.stepsTrained).toBe(195 * Math.ceil(40 / run0.config.batchSize));
    // test predictions: with the 'seen' head each prefix of depth t predicts its t + 1 tasks' 20 test images (15
    // prefixes of one task, 90 of two, 90 of three), and the untrained model predicts nothing
    expect(run0.config.head).toBe('seen');
    expect(fast.json.training.predictions).toBe(15 * 20 + 90 * 40 + 90 * 60);
    const naive = await cli('run', ...SMALL, '--orderings', 'all', '--fast', 'off');
    expect(naive.json.training).toMatchObject({ tasksTrained: 270, naiveTasks: 270, path: 'one run at a time' });
    fast.json.runs.forEach((r: any, k: number) => {
      expect(r.tasks).toEqual(naive.json.runs[k].tasks);
      expect(r.matrix).toEqual(naive.json.runs[k].matrix);
      expect(r.final_accuracy).toBeCloseTo(r.metrics.finalAccuracyWeighted, 12);
    });
    // every ordering once
    expect(new Set(fast.json.runs.map((r: any) => JSON.stringify(r.tasks))).size).toBe(90);

    const dir = mkdtempSync(join(tmpdir(), 'cil-run-'));
    const file = join(dir, 'runs.json');
    writeFileSync(file, JSON.stringify(fast.json));
    const a = await cli('analyze', '--results', file, '--dataset', 'fashion-mnist', '--classes', '0-5', '--tasks', '3');
    expect(a.code).toBe(0);
    expect(a.json.imported).toBe(90);
    const truth = a.json.statistics.strategies[0].truth.moments;
    const finals = fast.json.runs.map((r: any) => r.final_accuracy);
    expect(truth.n).toBe(90);
    expect(truth.mean).toBeCloseTo(finals.reduce((x: number, y: number) => x + y, 0) / 90, 9);
  }, 120_000);

  it('a seeded sample, and clear errors for an ordering space too large to enumerate', async () => {
    const s1 = await cli('run', ...SMALL, '--orderings', '5', '--sample-seed', '3');
    const s2 = await cli('run', ...SMALL, '--orderings', '5', '--sample-seed', '3');
    expect(s1.json.runs.length).toBe(5);
    expect(s1.json.runs.map((r: any) => r.tasks)).toEqual(s2.json.runs.map((r: any) => r.tasks));
    const big = await cli('run', '--dataset', 'fashion-mnist', '--classes', '0-9', '--tasks', '5', '--orderings', 'all', '--backend', 'cpu');
    expect(big.code).not.toBe(0);
    expect(big.err).toMatch(/113400 orderings.*--orderings N/);
    const bad = await cli('run', ...SMALL, '--orderings', 'many');
    expect(bad.err).toMatch(/--orderings takes "all" or a number/);
    const both = await cli('run', ...SMALL, '--orderings', 'all', '--order', '0,1,2,3,4,5');
    expect(both.err).toMatch(/one of --orderings, --order or --protocol/);
  }, 120_000);
});
