import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import fixture from '../../fixtures/whole-distribution.json';
import { captureCli } from './capture';

// `cil-lab run --features F --summary [--place …]` and `cil-lab analyze --features F --results LOG | --order …` on the
// 12-class numpy fixture (scripts/make-whole-distribution-fixtures.py): every one of the 369 600 orderings.
const cli = captureCli();
const NPZ = join(__dirname, '../../fixtures/ptm12-features.npz');
const LOG = join(__dirname, '../../fixtures/import/ptm12-pilot.log');
const simplecil = fixture.cases.find((c) => c.name === 'simplecil cosine')!;
const placeOf = (label: string) => simplecil.places.find((p) => p.label === label)!;

describe('cil-lab run --features --summary', () => {
  it('369 600 orderings: the issue’s JSON shape, numpy’s AIA distribution and the placed order’s percentile', async () => {
    const written = placeOf('written 0');
    const { code, json, err } = await cli('run', '--features', NPZ, '--tasks', '4', '--strategy', 'simplecil', '--summary', '--place', written.order.join(','));
    expect(code, err).toBe(0);
    const { summary } = json;
    expect(summary).toMatchObject({ orderings: 369600, omega: '369600', exact: true, method: 'SimpleCIL (cosine)' });
    for (const side of ['aia', 'final'] as const) {
      for (const k of ['min', 'max', 'mean', 'sd'] as const) expect(summary[side][k], `${side}.${k}`).toBeCloseTo(simplecil[side][k], 12);
      for (const [q, v] of Object.entries(simplecil[side].quantiles)) expect(summary[side].quantiles[q]).toBeCloseTo(v, 12);
      expect(summary[side].histogram.counts).toEqual(simplecil[side].histogram.counts);
    }
    expect(summary.aia.worst.tasks).toEqual(simplecil.extremes.aia.worst.tasks);
    expect(summary.aia.best.tasks).toEqual(simplecil.extremes.aia.best.tasks);
    expect(summary.aia.best.ties).toBe(simplecil.extremes.aia.best.ties);
    expect(json.place).toMatchObject({ order: written.order, tasks: written.tasks });
    expect(json.place.aia).toBeCloseTo(written.aia, 12);
    expect(json.place.final).toBeCloseTo(written.final, 12);
    expect(json.place.percentile).toBeCloseTo(written.percentile, 10);
    expect(json.place.finalPercentile).toBe(50);
    // RS's orderings are numpy's permutations; their Gaussian's JSD against the truth is numpy's
    expect(json.rs.orderings.map((o: { order: number[] }) => o.order)).toEqual(simplecil.places.slice(0, 3).map((p) => p.order));
    json.rs.orderings.forEach((o: { percentile: number }, k: number) => expect(o.percentile).toBeCloseTo(simplecil.places[k].percentile, 10));
    expect(json.rs.aia.jsd).toBeCloseTo(simplecil.rs.aiaJsd, 9);
    expect(json.rs.final.jsd).toBeNull(); // the final accuracy has no spread: no grid
    expect(json.edge.orderings.map((o: { label: string }) => o.label)).toEqual(['EDGE hard', 'EDGE easy', 'EDGE median (seed 0)']);
    expect(json.edge.aia.jsd).toBeGreaterThanOrEqual(0);
    expect(json.similarity).toBe('cosine similarity of the class prototypes of ptm12-features.npz');
    expect(json.verdict[0].text).toMatch(
      /^Your order sits at the \d+(st|nd|rd|th) percentile of AIA \(\d+\.\d%\), exact over all 369\s600 orderings: the worst order is \d+\.\d points lower/,
    );
    expect(json.verdict[1].text).toMatch(/is the same for every ordering/);
    expect(json.ties).toMatch(/mid-rank/);
    expect(err).toMatch(/exact over all 369\s600 orderings: 1\s365 states/);
  });

  it('RanPAC’s states on a second thread: the same distribution as numpy’s', async () => {
    const ranpac = fixture.cases.find((c) => c.name === 'ranpac M=48 task')!;
    const args = [
      'run',
      '--features',
      NPZ,
      '--tasks',
      '4',
      '--strategy',
      'ranpac',
      '--strategy-options',
      'projection=48,lambdaFrom=task',
      '--seed',
      '3',
      '--summary',
    ];
    const two = await cli(...args, '--threads', '2');
    expect(two.code, two.err).toBe(0);
    expect(two.json.threads).toBe(2);
    expect(two.json.summary.states).toBe(ranpac.states);
    expect(two.json.summary.aia.histogram.counts).toEqual(ranpac.aia.histogram.counts);
    expect(two.json.summary.aia.mean).toBeCloseTo(ranpac.aia.mean, 12);
    expect(two.json.summary.final.histogram.counts).toEqual(ranpac.final.histogram.counts);
    expect(two.json.summary.aia.worst.tasks).toEqual(ranpac.extremes.aia.worst.tasks);
  }, 60_000);

  it('beyond --limit: a uniform sample of the size Theorem 1 asks for, said to be estimates', async () => {
    const { code, json, err } = await cli('run', '--features', NPZ, '--tasks', '4', '--strategy', 'simplecil', '--summary', '--limit', '1000');
    expect(code, err).toBe(0);
    // Theorem 1 at ε = 0.1, δ = 0.05 on |Ω| = 369 600: L = 828 (cil-lab bounds --omega 369600)
    expect(json.summary).toMatchObject({ exact: false, orderings: 828 });
    expect(json.sample).toMatchObject({ size: 828, seed: 0, epsilon: 0.1, delta: 0.05 });
    expect(json.summary.what).toBe('a uniform sample of 828 of 369\u2009600 orderings (seed 0)');
    expect(err).toMatch(/a uniform sample of 828 \(Theorem 1 at ε = 0\.1, δ = 0\.05\); its numbers are estimates/);
  });

  it.each([
    [['--orderings', 'all', '--limit', '1000'], /more than --limit 1 000/],
    [['--place', '1,2,3'], /--place must list each class of the run once/],
    [['--order', '0,1,2,3,4,5,6,7,8,9,10,11'], /place one order with --place/],
    [['--strategy-options', 'metric=cosine,firstSession=8'], /with firstSession the state also depends on the first task/],
    [['--similarity', 'clip'], /--similarity takes features/],
  ])('bad input %j: exit 2, one line', async (extra, message) => {
    const { code, err } = await cli('run', '--features', NPZ, '--tasks', '4', '--strategy', 'simplecil', '--summary', ...extra);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(
      err
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('cil-lab:')),
    ).toHaveLength(1);
  });

  it('the summary flags without --summary, or on a trained strategy, are refused', async () => {
    const a = await cli('run', '--features', NPZ, '--tasks', '4', '--strategy', 'simplecil', '--similarity', 'features');
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/--similarity is read only with --summary/);
    const b = await cli('run', '--dataset', 'digits', '--tasks', '5', '--strategy', 'finetune', '--summary');
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/a trained strategy follows the path of its tasks/);
  });
});

describe('cil-lab analyze --features: placing a paper’s order', () => {
  it('a PILOT log’s orders, placed exactly; its own curve reported as the log’s', async () => {
    const { code, json, err } = await cli('analyze', '--features', NPZ, '--strategy', 'simplecil', '--results', LOG);
    expect(code, err).toBe(0);
    expect(json.summary.orderings).toBe(369600);
    expect(json.taskSizes).toEqual([3, 3, 3, 3]); // from init_cls / increment
    const [s1993, s0] = json.places;
    for (const [got, label] of [
      [s1993, 'RS seed 1993'],
      [s0, 'RS seed 0'],
    ] as const) {
      const want = placeOf(label);
      expect(got.tasks).toEqual(want.tasks);
      expect(got.aia).toBeCloseTo(want.aia, 12);
      expect(got.percentile).toBeCloseTo(want.percentile, 10);
      // the log's curve is the same classifier rounded to 2 decimals of a percent
      expect(Math.abs(got.logged.aia - want.aia)).toBeLessThan(5e-5);
    }
    expect(s1993.label).toBe('seed 1993');
    expect(s1993.verdict.map((s: { id: string }) => s.id)).toEqual(['place:aia', 'place:final', 'place:logged']);
    expect(s1993.verdict[0].text).toMatch(
      /^Your seed-1993 order sits at the 53rd percentile of AIA \(66\.7%\), exact over all 369\s600 orderings: the worst order is 14\.8 points lower, the best 12\.3 points higher\.$/,
    );
    expect(s1993.verdict[2].text).toMatch(/comparable with the numbers above only if that run used these features and this method/);
  });

  it('a bare class order, with names or indices, as task lists', async () => {
    const written = placeOf('written 1');
    const tasks = written.tasks
      .map((t) =>
        [...t]
          .reverse()
          .map((c) => `class ${c}`)
          .join(', '),
      )
      .join(' | ');
    const { code, json, err } = await cli('analyze', '--features', NPZ, '--strategy', 'simplecil', '--order', tasks, '--tasks', '4');
    expect(code, err).toBe(0);
    expect(json.places[0].tasks).toEqual(written.tasks);
    expect(json.places[0].percentile).toBeCloseTo(written.percentile, 10);
    expect(json.places[0].verdict[0].text).toMatch(/^Your order /);
  });

  it.each([
    [['--order', '0,1,2', '--tasks', '4'], /--order: the order has 3 classes; the experiment has 12/],
    [['--order', '0,1,2,3,4,5,6,7,8,9,10,11'], /--order needs the task sizes/],
    [['--tasks', '4'], /Give the orders to place/],
  ])('bad input %j: exit 2', async (extra, message) => {
    const { code, err } = await cli('analyze', '--features', NPZ, '--strategy', 'simplecil', ...extra);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it('placement flags without --features are refused by the plain analysis', async () => {
    const { code, err } = await cli('analyze', '--results', LOG, '--order', '1,2');
    expect(code).toBe(2);
    expect(err).toMatch(/--order is read only when placing orders/);
  });
});
