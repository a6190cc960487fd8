import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureCli } from './capture';
import { fx } from '../core/ood/fixture';

const cli = captureCli();
const dir = mkdtempSync(join(tmpdir(), 'cil-ood-'));
let fileNo = 0;
const file = (content: unknown): string => {
  const path = join(dir, `f${fileNo++}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

describe('cil-lab ood-metrics', () => {
  it('prints the four metrics of the fixtures (ties included)', async () => {
    for (const c of fx.metrics.slice(0, 4)) {
      const r = await cli('ood-metrics', '--id', file(c.id), '--ood', file(c.ood));
      expect(r.code, r.err).toBe(0);
      expect(r.json.auroc).toBeCloseTo(c.auroc, 12);
      expect(r.json.fpr95).toBe(c.fpr95);
      expect(r.json.auprIn).toBeCloseTo(c.auprIn, 12);
      expect(r.json.auprOut).toBeCloseTo(c.auprOut, 12);
      expect([r.json.idCount, r.json.oodCount]).toEqual([c.id.length, c.ood.length]);
    }
  });
  it('bad input: one line on stderr, exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--ood', file([1])], /Give --id/],
      [['--id', file([1])], /Give --ood/],
      [['--id', join(dir, 'missing.json'), '--ood', file([1])], /Cannot read the ID score file .*ENOENT/],
      [['--id', file('{not json'), '--ood', file([1])], /is not valid JSON/],
      [['--id', file([]), '--ood', file([1])], /the scores is empty/],
      [['--id', file({ a: 1 }), '--ood', file([1])], /must hold a JSON array/],
      [['--id', file([1, 'x']), '--ood', file([1])], /score 1 is not a finite number/],
      // the bounded reader (inputs.ts readTextInput): a folder or a device is refused, never read forever
      [['--id', dir, '--ood', file([1])], /Cannot read the ID score file .*it is a folder/],
      [['--id', file([1]), '--ood', '/dev/zero'], /Cannot read the OOD score file "\/dev\/zero": it is a device/],
      [['--id', file('[1,\u0000]'), '--ood', file([1])], /is not a text file/],
    ];
    for (const [args, re] of cases) {
      const r = await cli('ood-metrics', ...args);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(re);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('cil-lab ood-scores', () => {
  it('prints each asked detector’s scores, equal to the numpy reference', async () => {
    const c = fx.scores[0];
    const r = await cli('ood-scores', '--logits', file(c.logits), '--detectors', 'msp,maxlogit,energy,gen');
    expect(r.code, r.err).toBe(0);
    expect(Object.keys(r.json)).toEqual(['msp', 'maxlogit', 'energy', 'gen']);
    for (const k of ['msp', 'maxlogit', 'energy', 'gen'] as const) {
      (r.json[k] as number[]).forEach((v, i) => expect(v).toBeCloseTo(c.scores[k][i], 12));
    }
  });
  it('bad input: one line on stderr, exit code 2', async () => {
    const good = file([
      [1, 2],
      [3, 4],
    ]);
    const cases: [string[], RegExp][] = [
      [[], /Give --logits/],
      [['--logits', join(dir, 'nope.json')], /Cannot read the logits file/],
      [['--logits', file('[[1,2],')], /not valid JSON/],
      [['--logits', file([[1, 2], [3]])], /row 1 has 1 values but row 0 has 2/],
      [['--logits', file([])], /empty/],
      [['--logits', good, '--detectors', 'msp,react'], /Unknown detector "react"/],
      [['--logits', good, '--detectors', ' , '], /--detectors is empty/],
    ];
    for (const [args, re] of cases) {
      const r = await cli('ood-scores', ...args);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(re);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});
