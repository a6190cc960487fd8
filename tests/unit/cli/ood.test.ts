import { describe, expect, it } from 'vitest';
import { captureCli } from './capture';

const cli = captureCli();

describe('cil-lab ood', () => {
  it('trains a small run and prints per-step, per-detector, per-set metrics and accuracy', async () => {
    const r = await cli(
      'ood',
      '--dataset',
      'digits',
      '--classes',
      '0-5',
      '--tasks',
      '3',
      '--strategy',
      'replay',
      '--memory',
      '30',
      '--epochs',
      '1',
      '--train-per-class',
      '40',
      '--test-per-class',
      '15',
      '--backend',
      'cpu',
      '--ood',
      'digits:6-9,emoji:0-3',
      '--detectors',
      'msp,energy,ber',
      '--head-epochs',
      '1',
    );
    expect(r.code, r.err).toBe(0);
    const j = r.json;
    expect(j.accuracy).toHaveLength(3);
    expect(j.results).toHaveLength(3 * 3 * 2);
    expect(Object.keys(j.results[0])).toEqual(['step', 'detector', 'oodSet', 'auroc', 'fpr95', 'auprIn', 'auprOut', 'idCount', 'oodCount']);
    expect(j.results.filter((x: { step: number }) => x.step === 2).map((x: { idCount: number }) => x.idCount)).toEqual([90, 90, 90, 90, 90, 90]);
    expect(j.oodSets.map((s: { name: string; kind: string }) => [s.name, s.kind])).toEqual([
      ['digits:6-9', 'near'],
      ['emoji:0-3', 'far'],
    ]);
    expect(j.summary.map((s: { detector: string }) => s.detector)).toEqual(['msp', 'energy', 'ber']);
    expect(j.steps[2].assignment['digits:6-9']).toHaveLength(3);
  }, 120000);
  it('bad input: one line on stderr, exit code 2', async () => {
    const base = ['--dataset', 'digits', '--classes', '0-5', '--tasks', '3'];
    const cases: [string[], RegExp][] = [
      [['--tasks', '3'], /Give --dataset/],
      [[...base, '--detectors', 'msp,nope'], /Unknown detector "nope"/],
      [[...base, '--ood', 'digits:4-7'], /--ood: "digits:4-7" shares classes 4, 5 with the ID classes/],
      [[...base, '--ood', 'mnist-c'], /not a built-in dataset/],
      [['--dataset', 'digits', '--classes', '0-5'], /Give --tasks/],
    ];
    for (const [args, re] of cases) {
      const res = await cli('ood', ...args);
      expect(res.code).toBe(2);
      expect(res.err).toMatch(re);
      expect(res.err.trim().split('\n')).toHaveLength(1);
    }
  }, 60000);
});
