import { describe, expect, it } from 'vitest';
import expectedJson from '../../fixtures/import/expected.json';
import { captureCli } from './capture';

const expected = expectedJson as any;
const FX = 'tests/fixtures/import';
const cli = captureCli();

const close = (a: number, b: number, tol = 1e-9) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tol);

function checkAgainstPython(json: any, variable: 'final' | 'aia') {
  const stats = json.statistics;
  expect(stats.variable).toBe(variable);
  expect(stats.truthLabel).toBe('all 90 orderings');
  expect(stats.strategies.map((s: any) => s.strategy)).toEqual(
    Object.keys(expected.methods[variable]).sort((a, b) => (a === 'ewc' ? -1 : b === 'ewc' ? 1 : 0)),
  );
  for (const s of stats.strategies) {
    const e = expected.methods[variable][s.strategy];
    const m = s.truth.moments;
    expect(m.n).toBe(e.truth.n);
    expect(s.truth.complete).toBe(true);
    for (const k of ['mean', 'std', 'min', 'max'] as const) close(m[k], e.truth[k], 1e-12);
    for (const p of ['rs', 'edge'] as const) {
      expect(s[p].draws.map((d: any) => d.key)).toEqual(expected[p].map((d: any) => d.key));
      s[p].draws.forEach((d: any, i: number) => close(d.value, e[p].values[i], 1e-12));
      close(s[p].gaussian.value.mean, e[p].mean, 1e-12);
      close(s[p].gaussian.value.std, e[p].std, 1e-12);
      close(s[p].quality.value.jsd, e[p].jsd, 1e-9);
      close(s[p].quality.value.w1, e[p].w1, 1e-6);
    }
    close(s.pearson.value.statistic, e.pearson.r, 1e-9);
    expect(Math.abs(s.pearson.value.pvalue - e.pearson.p) / e.pearson.p).toBeLessThan(1e-6);
  }
  expect(stats.rankings.reason).toBeNull();
  expect(stats.rankings.value.provisional).toBe(false);
}

describe('cil-lab analyze', () => {
  it('the 90-ordering fixture with WordNet: numpy/scipy statistics, malformed rows listed', async () => {
    const r = await cli('analyze', '--results', `${FX}/fmnist6-runs.csv`, '--dataset', 'fashion-mnist', '--classes', '0-5', '--tasks', '3');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      format: 'csv',
      unit: 'percent',
      imported: 180,
      rowsRead: 187,
      omega: '90',
      taskSizes: [2, 2, 2],
      classes: expected.classes,
      accuracy: 'final',
    });
    expect(r.json.unitReason).toMatch(/values above 1 were found \(e\.g\. 46\.75 on line 2\)/);
    expect(r.json.skipped.map((s: any) => s.line)).toEqual(expected.malformed.map((m: any) => m.line));
    checkAgainstPython(r.json, 'final');
  });
  it("says the Ground-truth lab's verdict in the same words, with the fixture's numbers", async () => {
    const r = await cli('analyze', '--results', `${FX}/fmnist6-runs.csv`, '--dataset', 'fashion-mnist', '--classes', '0-5', '--tasks', '3');
    expect(r.code).toBe(0);
    // one verdict per strategy (each with its headline), and every sentence prefixed with its strategy in `verdict`
    expect(r.json.verdicts.map((v: any) => v.strategy).sort()).toEqual(['ewc', 'finetune']);
    expect(r.json.headline).toBe(r.json.verdicts[0].headline);
    for (const v of r.json.verdicts) expect(v.headline.split(/\s+/).length).toBeLessThanOrEqual(30);
    for (const m of ['ewc', 'finetune']) {
      const e = expected.methods.final[m];
      const mine = new Map<string, string>(
        r.json.verdicts.find((v: any) => v.strategy === m).sentences.map((s: any) => [s.id.split(':').slice(0, 2).join(':'), s.text]),
      );
      // R and n from numpy/scipy, written as the verdict rounds them; its strength said only when p < 0.05
      expect(mine.get(`correlation:${m}`)).toContain(`R = ${e.pearson.r.toFixed(2)}`);
      expect(mine.get(`correlation:${m}`)).toContain('n = 90');
      if (!(e.pearson.p < 0.05)) expect(mine.get(`correlation:${m}`)).toContain('no correlation is shown');
      // EDGE vs RS: the direction numpy's JSDs give, with both numbers, as one draw of each
      const said =
        e.edge.jsd > e.rs.jsd
          ? 'the 3 RS orderings came closer to the truth’s distribution than EDGE’s three orderings'
          : 'EDGE’s three orderings came closer to the truth’s distribution than the 3 RS orderings';
      expect(mine.get(`estimates:${m}`)).toContain(said);
      expect(mine.get(`estimates:${m}`)).toContain(`JSD ${e.edge.jsd.toFixed(3)} vs ${e.rs.jsd.toFixed(3)} bits`);
      expect(r.json.verdict.some((s: any) => s.text.startsWith(`${m}: `))).toBe(true);
    }
  });
  it('the same numbers with the similarity from a file, and for AIA', async () => {
    const a = await cli(
      'analyze',
      '--results',
      `${FX}/fmnist6-runs.csv`,
      '--similarity',
      `file:${FX}/fmnist6-wordnet.json`,
      '--classes',
      expected.classes.join(','),
      '--task-sizes',
      '2,2,2',
    );
    expect(a.code).toBe(0);
    checkAgainstPython(a.json, 'final');
    const b = await cli(
      'analyze',
      '--results',
      `${FX}/fmnist6-runs.csv`,
      '--dataset',
      'fashion-mnist',
      '--classes',
      '0-5',
      '--tasks',
      '3',
      '--accuracy',
      'aia',
    );
    expect(b.code).toBe(0);
    checkAgainstPython(b.json, 'aia');
  });
  it('reads a PyCIL log with the classes and task sizes it states', async () => {
    const r = await cli('analyze', '--results', `${FX}/small-pycil.log`, '--similarity', `file:${FX}/fmnist6-wordnet.json`);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ format: 'pycil-log', imported: 2, taskSizes: [2, 2, 2], taskSizesFrom: 'file' });
    const s = r.json.statistics.strategies[0];
    expect(s.strategy).toBe('icarl');
    expect(s.truth.evaluated).toBe(2);
    expect(s.rs.have).toBe(2); // seeds 0 and 1993 of RS were trained in the log
    expect(r.err).toMatch(/note: task sizes 2, 2, 2 from the log's init_cls/);
  });
  it('says what is missing', async () => {
    expect((await cli('analyze')).err).toMatch(/Give --results F/);
    expect((await cli('analyze', '--results', 'nope.csv')).err).toMatch(/Cannot read the --results file "nope.csv": ENOENT/);
    const idx = await cli('analyze', '--results', `${FX}/small-pycil.log`);
    expect(idx.code).toBe(2);
    expect(idx.err).toMatch(/WordNet needs class names/);
    expect((await cli('analyze', '--results', `${FX}/fmnist6-runs.csv`, '--accuracy', 'top5')).err).toMatch(/--accuracy must be final or aia/);
    const help = await cli('--help');
    expect(help.json).toContain('cil-lab analyze --results F');
  });
});
