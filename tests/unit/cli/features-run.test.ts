import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import fixture from '../../fixtures/ptm.json';
import { captureCli } from './capture';

// `cil-lab run --features F.npz --strategy simplecil|ranpac|fecam`, on the numpy fixture (scripts/make-ptm-fixtures.py).
const cli = captureCli();
const NPZ = join(__dirname, '../../fixtures/ptm-features.npz');
const CLASSES = fixture.classes.join(',');
const caseOf = (name: string) => fixture.cases.find((c) => c.name === name)!;

describe('cil-lab run --features', () => {
  it('--orderings all: every ordering with numpy’s final accuracy and AIA, in the npz’s label ids, and the path taken', async () => {
    const { code, json, err } = await cli(
      'run',
      '--features',
      NPZ,
      '--classes',
      CLASSES,
      '--tasks',
      '3',
      '--strategy',
      'ranpac',
      '--strategy-options',
      'projection=24,lambdaFrom=task',
      '--seed',
      '3',
      '--orderings',
      'all',
    );
    expect(code, err).toBe(0);
    const want = caseOf('ranpac M=24 task').runs;
    expect(json.runs.map((r: any) => r.tasks.map((t: number[]) => t.join(',')).join('|'))).toEqual(want.map((r) => r.key));
    json.runs.forEach((r: any, k: number) => {
      expect(r.final_accuracy).toBeCloseTo(want[k].final, 12);
      expect(r.aia).toBeCloseTo(want[k].aia, 12);
    });
    expect(json.runs[0]).toMatchObject({
      strategy: 'ranpac',
      strategyOptions: { projection: 24, lambdaFrom: 'task' },
      seed: 3,
      classes: fixture.classes.map((c) => `class ${c}`),
    });
    expect(json.runs[0].matrix).toHaveLength(3);
    expect(json.runs[0].metrics.finalAccuracyWeighted).toBe(json.runs[0].final_accuracy);
    expect(json.training.path).toMatch(/^exact by class set: \d+ states for 90 orderings$/);
    expect(json.training.stateRule).toMatch(/λ its last task chose/);
    expect(err).toMatch(/primal form/);
  });

  it('--orderings sample:N draws a seeded uniform sample (the same with N alone), --order and the default give one run', async () => {
    const a = await cli(
      'run',
      '--features',
      NPZ,
      '--classes',
      CLASSES,
      '--tasks',
      '3',
      '--strategy',
      'simplecil',
      '--orderings',
      'sample:7',
      '--sample-seed',
      '5',
    );
    const b = await cli('run', '--features', NPZ, '--classes', CLASSES, '--tasks', '3', '--strategy', 'simplecil', '--orderings', '7', '--sample-seed', '5');
    expect(a.json.runs).toHaveLength(7);
    expect(b.json.runs.map((r: any) => r.tasks)).toEqual(a.json.runs.map((r: any) => r.tasks));
    // SimpleCIL: one final accuracy for every ordering
    expect(new Set(a.json.runs.map((r: any) => r.final_accuracy)).size).toBe(1);
    const one = await cli('run', '--features', NPZ, '--classes', CLASSES, '--tasks', '3', '--strategy', 'fecam', '--order', '7,0,1,3,4,6');
    expect(one.code, one.err).toBe(0);
    expect(one.json.tasks).toEqual([
      [0, 7],
      [1, 3],
      [4, 6],
    ]);
    const want = caseOf('fecam').runs.find((r) => r.key === '0,7|1,3|4,6')!;
    expect(one.json.final_accuracy).toBeCloseTo(want.final, 12);
    expect(one.json.aia).toBeCloseTo(want.aia, 12);
    expect(one.err).toMatch(/exact by class set: 3 states for 1 ordering/);
    const plain = await cli('run', '--features', NPZ, '--tasks', '4', '--strategy', 'simplecil', '--strategy-options', 'metric=euclidean');
    expect(plain.json.order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(plain.json.method).toBe('NCM (Euclidean, normalised features)');
  });

  it('--strategy-options firstSession=W adapts a layer on each first task: one final accuracy per first task, records in the order asked', async () => {
    const args = ['run', '--features', NPZ, '--classes', CLASSES, '--tasks', '3', '--strategy', 'simplecil', '--orderings', 'all'];
    const { code, json, err } = await cli(...args, '--strategy-options', 'firstSession=16', '--epochs', '2');
    expect(code, err).toBe(0);
    expect(json.runs).toHaveLength(90);
    expect(json.runs[0]).toMatchObject({
      strategyOptions: { metric: 'cosine', firstSession: 16 },
      method: 'SimpleCIL (cosine, adapted on the first task (16 units))',
    });
    expect(json.training.path).toMatch(
      /^exact by first task and class set: \d+ states for 90 orderings \(a 16-unit layer adapted on each of 15 first tasks\)$/,
    );
    // the same orderings in the same order as without adaptation
    const plain = await cli(...args);
    expect(json.runs.map((r: any) => r.tasks)).toEqual(plain.json.runs.map((r: any) => r.tasks));
    expect(plain.json.runs[0].strategyOptions).toEqual({ metric: 'cosine' });
    const finals = new Map<string, Set<number>>();
    for (const r of json.runs) finals.set(r.tasks[0].join(','), (finals.get(r.tasks[0].join(',')) ?? new Set()).add(r.final_accuracy));
    expect([...finals.values()].every((f) => f.size === 1)).toBe(true);
    expect(new Set([...finals.values()].map((f) => [...f][0])).size).toBeGreaterThan(1);
    // firstSession=0 is no adaptation: the plain run's numbers
    const off = await cli(...args, '--strategy-options', 'firstSession=0');
    expect(off.json.runs.map((r: any) => r.final_accuracy)).toEqual(plain.json.runs.map((r: any) => r.final_accuracy));
  });

  it('any other strategy on --features trains the head model (cli/features.ts), not a pre-trained method', async () => {
    const head = await cli('run', '--features', NPZ, '--tasks', '4', '--strategy', 'ewc', '--epochs', '1');
    expect(head.code).toBe(0);
    expect(head.json.config.model).toEqual({ kind: 'head', hidden: [] });
    expect(head.json.strategy).toBe('ewc');
  });

  it('bad input: one line, exit 2', async () => {
    const bad: [string[], RegExp][] = [
      [['--tasks', '3', '--strategy', 'ranpac'], /give --features F\.npz/],
      [['--features', 'missing.npz', '--tasks', '4', '--strategy', 'fecam'], /Cannot read the --features file "missing\.npz": ENOENT/],
      [['--features', NPZ, '--tasks', '3', '--strategy', 'fecam'], /8 classes do not split into 3 equal tasks/],
      [
        ['--features', NPZ, '--tasks', '4', '--strategy', 'ranpac', '--strategy-options', 'M=5'],
        /ranpac has no option "M" \(it has projection, lambdaFrom, firstSession\)/,
      ],
      [
        ['--features', NPZ, '--tasks', '4', '--strategy', 'simplecil', '--strategy-options', 'firstSession=-3'],
        /firstSession must be a whole number from 0 to 1024/,
      ],
      [['--features', NPZ, '--tasks', '4', '--strategy', 'ranpac', '--strategy-options', 'projection=lots'], /projection must be a number/],
      [['--features', NPZ, '--tasks', '4', '--strategy', 'ranpac', '--strategy-options', 'lambdaFrom=all'], /lambdaFrom must be task or seen/],
      [
        ['--features', NPZ, '--tasks', '2', '--strategy', 'simplecil', '--orderings', 'all', '--limit', '10'],
        /70 orderings, more than --limit 10: give --orderings sample:N/,
      ],
      [['--features', NPZ, '--tasks', '2', '--strategy', 'simplecil', '--orderings', 'many'], /--orderings takes all or sample:N/],
      [
        ['--features', NPZ, '--tasks', '2', '--strategy', 'simplecil', '--orderings', 'all', '--order', '0,1'],
        /Give one of --orderings, --order or --protocol/,
      ],
      [['--features', NPZ, '--classes', '0-8', '--tasks', '3', '--strategy', 'simplecil'], /Class 8 is not in the feature set/],
      [['--features', NPZ, '--tasks', '4', '--strategy', 'simplecil', '--train-per-class', '1'], /every class needs at least 2/],
    ];
    for (const [argv, message] of bad) {
      const { code, err, out } = await cli('run', ...argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(err, argv.join(' ')).toMatch(message);
      expect(out).toBe('');
    }
  });

  it('--help lists the command', async () => {
    const { out } = await cli('--help');
    expect(out).toMatch(/cil-lab run --features F\.npz .*--strategy simplecil\|ranpac\|fecam/);
  });
});
