import { describe, expect, it } from 'vitest';
import { artefactBaselineAccuracy, m2iMetrics } from '../../../src/core/metrics/m2i';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatConfigFile } from '../../../src/core/config/config-file';
import { defaultConfig } from '../../../src/core/config/schema';
import { foldCurriculum } from '../../../src/core/labs/curriculum/section';
import { encodeConfigToHash } from '../../../src/core/config/url-codec';
import { selectBackend } from '../../../src/engine/backend';
import { captureCli } from './capture';
import { curriculumLab } from '../../../src/core/labs/curriculum';

const cli = captureCli();
// tiny: 3 small datasets, 12 training / 4 test images per class, 1 epoch, a 16-unit MLP, the cpu backend
const tiny = [
  '--datasets',
  'digits,fashion-mnist,emoji-food',
  '--train-per-class',
  '12',
  '--test-per-class',
  '4',
  '--epochs',
  '1',
  '--hidden',
  '16',
  '--backend',
  'cpu',
  '--seed',
  '3',
];

type Run = {
  order: string[];
  scenario: string;
  strategy: string;
  matrix: number[][];
  acc: number;
  bwt: number;
  fwt: number;
  acc0: number;
  m2i: boolean;
  i2m: boolean;
};

describe('cil-lab curriculum', () => {
  it('--order all trains every one of the K! orders; TIL ≥ CIL entry by entry; metrics from R and a_j', async () => {
    await selectBackend('cpu', { strict: true });
    const r = await cli('curriculum', '--order', 'all', '--scenario', 'both', ...tiny);
    expect(r.code, r.err).toBe(0);
    const j = r.json as {
      datasets: string[];
      isolated: Record<string, number>;
      runs: Run[];
      summary: { deltaAcc: number; deltaAcc0: number; share: number | null }[];
      m2i: string[];
      i2m: string[];
    };
    expect(j.datasets).toEqual(['digits', 'fashion-mnist', 'emoji-food']);
    expect(Object.keys(j.isolated)).toEqual(j.datasets);
    expect(j.runs).toHaveLength(12); // 3! orders × 2 scenarios
    expect(new Set(j.runs.map((x) => x.order.join('>'))).size).toBe(6);
    expect(j.m2i).toEqual([...j.i2m].reverse());
    // M2I: isolated accuracies descending
    const a = j.m2i.map((d) => j.isolated[d]);
    expect(a).toEqual([...a].sort((x, y) => y - x));
    for (const order of new Set(j.runs.map((x) => x.order.join('>')))) {
      const cil = j.runs.find((x) => x.order.join('>') === order && x.scenario === 'cil') as Run;
      const til = j.runs.find((x) => x.order.join('>') === order && x.scenario === 'til') as Run;
      cil.matrix.forEach((row, i) => row.forEach((v, k) => expect(til.matrix[i][k], `${order} ${i},${k}`).toBeGreaterThanOrEqual(v)));
      // the CIL upper triangle is 0 with the 'seen' head
      expect(cil.matrix[0][1]).toBe(0);
      for (const run of [cil, til]) {
        const m = m2iMetrics(run.matrix);
        expect(run.acc).toBeCloseTo(m.accuracy, 5);
        expect(run.bwt).toBeCloseTo(m.bwt as number, 5);
        expect(run.fwt).toBeCloseTo(m.fwt as number, 5);
        expect(run.acc0).toBeCloseTo(artefactBaselineAccuracy(run.order.map((d) => j.isolated[d])), 5);
      }
    }
    expect(j.runs.filter((x) => x.m2i)).toHaveLength(2);
    expect(j.summary).toHaveLength(2);
  });

  it('--order m2i / a hand order train one order; --scenario til prints TIL only', async () => {
    const r = await cli('curriculum', '--order', 'emoji-food,digits,fashion-mnist', '--scenario', 'til', ...tiny);
    expect(r.code, r.err).toBe(0);
    expect(r.json.runs).toHaveLength(1);
    expect(r.json.runs[0].order).toEqual(['emoji-food', 'digits', 'fashion-mnist']);
    expect(r.json.runs[0].scenario).toBe('til');
  });

  it('bad input: one line on stderr, exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--datasets', 'digits'], /at least 2/],
      [['--datasets', 'digits,cifar'], /Unknown curriculum dataset "cifar"/],
      [['--order', 'hardest'], /each dataset of the curriculum once/],
      [['--scenario', 'dil'], /Unknown --scenario/],
      [['--strategy', 'magic'], /Unknown --strategy/],
      [['--datasets', 'digits,fashion-mnist,emoji-animals,emoji-food,emoji-vehicles,emoji-objects,emoji-clothing', '--order', 'all'], /at most 6/],
    ];
    for (const [args, re] of cases) {
      const r = await cli('curriculum', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(re);
    }
  });

  it("without --hidden the command trains the lab's model: one hidden layer of the section's 256 units, not run's 256-128", async () => {
    const noHidden = tiny.filter((x, i) => x !== '--hidden' && tiny[i - 1] !== '--hidden');
    const args = ['curriculum', '--order', 'm2i', '--scenario', 'cil', '--strategy', 'finetune', ...noHidden];
    const byDefault = await cli(...args);
    const one = await cli(...args, '--hidden', '256');
    const two = await cli(...args, '--hidden', '256,128');
    expect(byDefault.code, byDefault.err).toBe(0);
    expect({ ...byDefault.json, seconds: 0 }).toEqual({ ...one.json, seconds: 0 });
    expect(byDefault.json.runs[0].matrix).not.toEqual(two.json.runs[0].matrix);
  }, 60_000);

  it("--link / --config: the experiment's Curriculum section, as the equivalent flags; a flag given wins", async () => {
    const c = defaultConfig();
    c.curriculum = {
      datasets: ['digits', 'fashion-mnist'],
      order: 'm2i',
      scenario: 'cil',
      strategies: ['finetune'],
      epochs: 1,
      hidden: 16,
      trainPerClass: 12,
      testPerClass: 4,
      seed: 3,
    };
    const link = `http://127.0.0.1:5173/${encodeConfigToHash(c)}`;
    const flags = [
      '--datasets',
      'digits,fashion-mnist',
      '--order',
      // the lab trains M2I and I2M both for the section's 'm2i'
      'pair',
      '--scenario',
      'cil',
      '--strategy',
      'finetune',
      '--epochs',
      '1',
      '--hidden',
      '16',
      '--train-per-class',
      '12',
      '--test-per-class',
      '4',
      '--seed',
      '3',
    ];
    const byFlags = await cli('curriculum', ...flags, '--backend', 'cpu');
    const byLink = await cli('curriculum', '--link', link, '--backend', 'cpu');
    expect(byLink.code, byLink.err).toBe(0);
    expect({ ...byLink.json, seconds: 0 }).toEqual({ ...byFlags.json, seconds: 0 });
    expect(byLink.json.runs).toHaveLength(2);
    // the same settings as a link made on the lab today (strategies, model and training in the common sections)
    const own = foldCurriculum(defaultConfig(), curriculumLab.view(c));
    expect(own.curriculum).toEqual({ from: 'experiment', datasets: ['digits', 'fashion-mnist'], order: 'm2i', scenario: 'cil' });
    const byOwn = await cli('curriculum', '--link', `http://127.0.0.1:5173/${encodeConfigToHash(own)}`, '--backend', 'cpu');
    expect(byOwn.code, byOwn.err).toBe(0);
    expect(byOwn.json.runs).toEqual(byFlags.json.runs);
    own.model = { kind: 'mlp', hidden: [16, 8] };
    const refused = await cli('curriculum', '--link', `http://127.0.0.1:5173/${encodeConfigToHash(own)}`, '--backend', 'cpu');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      'The Curriculum lab cannot train what this experiment sets: an MLP with hidden layers 16, 8 (the lab trains one hidden layer) (it would train one hidden layer of 256).',
    );
    const file = join(mkdtempSync(join(tmpdir(), 'cil-curriculum-')), 'experiment.json');
    writeFileSync(file, formatConfigFile(c));
    const byFile = await cli('curriculum', '--config', file, '--backend', 'cpu');
    expect(byFile.code, byFile.err).toBe(0);
    expect(byFile.json.runs).toEqual(byFlags.json.runs);
    const til = await cli('curriculum', '--link', link, '--backend', 'cpu', '--scenario', 'til');
    expect(til.json.runs.map((r: Run) => r.scenario)).toEqual(['til', 'til']);
    const bad = await cli('curriculum', '--link', 'http://x/page');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--link needs the share link/);
  }, 60_000);
});
