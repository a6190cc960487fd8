import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureCli } from './capture';
import { runCommand } from '../../../src/cli/run';

const cli = captureCli();

const haveDigits = existsSync(join('public', 'data', 'digits', 'meta.json'));

/** IDX files of a tiny 4-class dataset (train only): what a user could drop. */
function idxDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cil-idx-'));
  const n = 40;
  const imgs = new Uint8Array(16 + n * 16);
  new DataView(imgs.buffer).setUint32(0, 2051);
  new DataView(imgs.buffer).setUint32(4, n);
  new DataView(imgs.buffer).setUint32(8, 4);
  new DataView(imgs.buffer).setUint32(12, 4);
  const labels = new Uint8Array(8 + n);
  new DataView(labels.buffer).setUint32(0, 2049);
  new DataView(labels.buffer).setUint32(4, n);
  for (let i = 0; i < n; i++) {
    const c = i % 4;
    labels[8 + i] = c;
    for (let p = 0; p < 16; p++) imgs[16 + i * 16 + p] = p % 4 === c ? 250 : (i * 7 + p * 13) % 40;
  }
  writeFileSync(join(dir, 'train-images-idx3-ubyte'), imgs);
  writeFileSync(join(dir, 'train-labels-idx1-ubyte'), labels);
  return dir;
}

describe('cil-lab run', () => {
  it.skipIf(!haveDigits)('trains on digits and prints R, the metrics, the backend and the ordering', async () => {
    const r = await cli(
      'run',
      '--dataset',
      'digits',
      '--classes',
      '0-5',
      '--tasks',
      '3',
      '--order',
      '5,4,3,2,1,0',
      '--strategy',
      'replay',
      '--memory',
      '30',
      '--epochs',
      '1',
      '--hidden',
      '16',
      '--seed',
      '2',
      '--backend',
      'cpu',
      '--train-per-class',
      '20',
      '--test-per-class',
      '10',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.json.tasks).toEqual([
      [4, 5],
      [2, 3],
      [0, 1],
    ]);
    expect(r.json.order).toEqual([5, 4, 3, 2, 1, 0]);
    expect(r.json.matrix).toHaveLength(3);
    expect(r.json.backend).toBe('cpu');
    expect(r.json.classes).toEqual(['zero', 'one', 'two', 'three', 'four', 'five']);
    expect(Object.keys(r.json.metrics)).toEqual(expect.arrayContaining(['finalAccuracy', 'aia', 'bwt', 'forgetting', 'fwt', 'clear', 'm2i']));
    expect(r.json.testCounts).toEqual([20, 20, 20]);
    expect(r.json.config.strategyOptions).toEqual({ memory: 30, selection: 'reservoir' });
    expect(typeof r.json.seconds).toBe('number');
  });

  it.skipIf(!haveDigits)("runs one ordering per RS seed (numpy's permutation of the chosen classes)", async () => {
    const r = await cli(
      'run',
      '--dataset',
      'digits',
      '--tasks',
      '5',
      '--protocol',
      'rs',
      '--seeds',
      '0,1993',
      '--strategy',
      'finetune',
      '--epochs',
      '1',
      '--hidden',
      '8',
      '--backend',
      'cpu',
      '--train-per-class',
      '10',
      '--test-per-class',
      '5',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.json.runs.map((x: any) => x.label)).toEqual(['RS seed 0', 'RS seed 1993']);
    expect(r.json.runs[0].order).toEqual([2, 8, 4, 9, 1, 6, 7, 3, 0, 5]); // np.random.seed(0); np.random.permutation(10)
  });

  it("reads the user's IDX files and holds out a test split when they have none", async () => {
    const r = await cli('run', '--dataset', idxDir(), '--tasks', '2', '--strategy', 'ncm', '--epochs', '2', '--hidden', '8', '--backend', 'cpu');
    expect(r.code, r.err).toBe(0);
    expect(r.json.testCounts).toEqual([4, 4]);
    expect(r.err).toMatch(/no test split/);
  });

  it('says what to do when the built-in data is not prepared, and rejects bad input', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cil-noroot-'));
    await expect(runCommand({ dataset: 'digits', tasks: '5' }, { root })).rejects.toThrow(/npm run prepare-data/);
    expect((await cli('run', '--dataset', '/no/such/path', '--tasks', '5')).err).toMatch(/neither a built-in dataset/);
    if (haveDigits) {
      expect((await cli('run', '--dataset', 'digits', '--tasks', '3')).err).toMatch(/10 classes do not split into 3 equal tasks/);
      expect((await cli('run', '--dataset', 'digits', '--tasks', '5', '--strategy', 'ewc', '--memory', '5')).err).toMatch(
        /--memory applies to replay, icarl, agem, gdumb/,
      );
      expect((await cli('run', '--dataset', 'digits', '--tasks', '5', '--order', '1,2,3')).err).toMatch(/--order must list each class/);
      const bad = await cli('run', '--dataset', 'digits', '--tasks', '5', '--strategy', 'magic');
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/Unknown --strategy "magic"/);
    }
  });
});
