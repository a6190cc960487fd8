import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { fx } from '../core/conformal/fixture';

let out = '';
let err = '';
const dir = mkdtempSync(join(tmpdir(), 'cil-conformal-'));
let fileNo = 0;
const file = (content: unknown): string => {
  const path = join(dir, `f${fileNo++}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

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

describe('cil-lab conformal', () => {
  it('prints q, sets, sizes and coverage equal to the numpy reference for every score', async () => {
    for (const c of fx.conformal.slice(0, 9)) {
      const r = await cli('conformal', '--calibration', file(c.calibration), '--test', file(c.test), '--alpha', String(c.alpha), '--score', c.score);
      expect(r.code, r.err).toBe(0);
      expect(r.json.q).toBe(c.q);
      expect(r.json.qInfinite).toBe(c.q === null);
      expect(r.json.sets).toEqual(c.sets);
      expect(r.json.sizes).toEqual(c.sizes);
      expect(r.json.coverage).toBe(c.coverage);
      expect(r.json.n).toBe(c.calibration.labels.length);
      expect(r.json.score).toBe(c.score);
      if (c.score === 'raps') expect(r.json.raps).toEqual({ lambda: 0.01, kReg: 5 });
    }
  });
  it('APS is the default score; test labels are optional (coverage null)', async () => {
    const cal = file({
      probs: [
        [0.7, 0.2, 0.1],
        [0.1, 0.6, 0.3],
        [0.5, 0.4, 0.1],
        [0.2, 0.2, 0.6],
        [0.8, 0.1, 0.1],
      ],
      labels: [0, 1, 1, 2, 0],
    });
    const r = await cli('conformal', '--calibration', cal, '--test', file({ probs: [[0.5, 0.3, 0.2]] }), '--alpha', '0.5');
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ q: 0.7, qInfinite: false, sets: [[0, 1]], sizes: [2], coverage: null, meanSize: 2, n: 5, alpha: 0.5, score: 'aps' });
  });
  it('q = +∞ (too few calibration points for α) prints as null with qInfinite: true, and every set is full', async () => {
    const cal = file({
      probs: [
        [0.7, 0.3],
        [0.4, 0.6],
      ],
      labels: [0, 1],
    });
    const r = await cli('conformal', '--calibration', cal, '--test', file({ probs: [[0.9, 0.1]], labels: [1] }), '--alpha', '0.1');
    expect(r.code).toBe(0);
    expect(r.json.q).toBeNull();
    expect(r.json.qInfinite).toBe(true);
    expect(r.json.sets).toEqual([[0, 1]]);
    expect(r.json.coverage).toBe(1);
  });
  it('bad input: a clear message on stderr and exit code 2', async () => {
    const good = file({
      probs: [
        [0.7, 0.3],
        [0.4, 0.6],
      ],
      labels: [0, 1],
    });
    const bad = async (argv: string[], message: string | RegExp) => {
      const r = await cli('conformal', ...argv);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(message);
      expect(out).toBe('');
    };
    const missing = join(dir, 'nope.json');
    await bad(['--calibration', missing, '--test', good, '--alpha', '0.1'], `cil-lab: Cannot read the calibration file "${missing}": ENOENT.`);
    await bad(['--test', good, '--alpha', '0.1'], 'Give --calibration F');
    await bad(['--calibration', good, '--alpha', '0.1'], 'Give --test F');
    await bad(['--calibration', good, '--test', good], 'Give --alpha, the miscoverage level in (0, 1)');
    await bad(['--calibration', good, '--test', file('{"probs": [[1, 0]'), '--alpha', '0.1'], /The test file ".*" is not valid JSON/);
    const notSummed = file({
      probs: [
        [0.7, 0.3],
        [0.5, 0.4],
        [0.4, 0.6],
      ],
      labels: [0, 1, 1],
    });
    await bad(
      ['--calibration', notSummed, '--test', good, '--alpha', '0.1'],
      `the calibration file "${notSummed}": probs: row 1 sums to 0.9, not 1 (tolerance 0.0001); give softmax probabilities, not logits.`,
    );
    const logits = file({ probs: [[2.1, -0.3]] });
    await bad(['--calibration', good, '--test', logits, '--alpha', '0.1'], 'row 0, column 0 = 2.1 is not a probability in [0, 1].');
    const outOfRange = file({
      probs: [
        [0.7, 0.3],
        [0.4, 0.6],
      ],
      labels: [0, 2],
    });
    await bad(
      ['--calibration', outOfRange, '--test', good, '--alpha', '0.1'],
      `the calibration file "${outOfRange}": labels[1] = 2 is out of range: the probabilities have 2 classes (0..1).`,
    );
    const testOut = file({ probs: [[0.7, 0.3]], labels: [5] });
    await bad(['--calibration', good, '--test', testOut, '--alpha', '0.1'], `the test file "${testOut}": labels[0] = 5 is out of range`);
    await bad(
      ['--calibration', file({ probs: [[0.7, 0.3]] }), '--test', good, '--alpha', '0.1'],
      '"labels" is missing; the calibration data needs the true class of every row.',
    );
    await bad(
      ['--calibration', file({ probs: [[0.7, 0.3]], labels: [0, 1] }), '--test', good, '--alpha', '0.1'],
      'labels: 2 labels for 1 rows of probabilities',
    );
    const three = file({ probs: [[0.2, 0.3, 0.5]] });
    await bad(
      ['--calibration', good, '--test', three, '--alpha', '0.1'],
      `the calibration file "${good}" has 2 classes but the test file "${three}" has 3; both need the same classes.`,
    );
    await bad(['--calibration', good, '--test', file({ probs: [[0.7, 0.3], [1]] }), '--alpha', '0.1'], 'row 1 has 1 columns but row 0 has 2');
    await bad(['--calibration', good, '--test', file({ probs: [] }), '--alpha', '0.1'], '"probs" must be a non-empty array of rows');
    await bad(['--calibration', good, '--test', file([1, 2]), '--alpha', '0.1'], 'must hold an object {"probs"');
    for (const a of ['0', '1', '1.5', '-0.1'])
      await bad(
        ['--calibration', good, '--test', good, `--alpha=${a}`],
        `--alpha must be strictly between 0 and 1 (e.g. 0.1 for 90% coverage); got ${Number(a)}.`,
      );
    await bad(['--calibration', good, '--test', good, '--alpha', 'ten'], '--alpha must be a number; got "ten".');
    await bad(['--calibration', good, '--test', good, '--alpha', '0.1', '--score', 'naive'], 'Unknown --score "naive": use aps, lac, raps.');
  });
  it('is listed in the help', async () => {
    const r = await cli('--help');
    expect(r.json).toMatch(/cil-lab conformal --calibration F\.json --test F\.json --alpha 0\.1 \[--score aps\|lac\|raps\]/);
  });
});
