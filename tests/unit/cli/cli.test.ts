import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import expected from '../../fixtures/cli/expected.json';
import { main } from '../../../src/cli/main';

const fx = (f: string) => join('tests/fixtures/cli', f);
let out = '';
let err = '';

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

describe('cil-lab count / enumerate', () => {
  it('count: |Ω| as an exact string', async () => {
    expect((await cli('count', '--classes', '6', '--tasks', '3')).json.omega).toBe('90');
    expect((await cli('count', '--classes', '8', '--task-sizes', '2,2,2,2')).json.omega).toBe('2520');
  });
  it('enumerate lists every ordering when small and offers sampling when too large', async () => {
    const small = await cli('enumerate', '--classes', '6', '--tasks', '3');
    expect(small.json.orderings).toHaveLength(90);
    expect(new Set(small.json.orderings.map((o: any) => o.key)).size).toBe(90);
    out = '';
    const big = await cli('enumerate', '--classes', '100', '--tasks', '10');
    expect(big.code).toBe(2);
    expect(big.err).toMatch(/There are 2357\d+ orderings \(2\.357e92\), more than the limit of 1000000: draw a uniform sample instead with --sample/);
    out = '';
    const sampled = await cli('enumerate', '--classes', '100', '--tasks', '10', '--sample', '3', '--seed', '1');
    expect(sampled.json.sampled).toBe(true);
    expect(sampled.json.orderings).toHaveLength(3);
  });
});

describe('cil-lab orders', () => {
  it('RS on CIFAR-100 reproduces numpy: seed 1993 starts 68, 56, 78, 8, 23, 84, 90, 65, 74, 76', async () => {
    const r = await cli('orders', '--dataset', 'cifar100', '--tasks', '10', '--protocol', 'rs', '--seeds', '1993');
    expect(r.code).toBe(0);
    expect(r.json.classes[68]).toBe('road');
    const seq = r.json.sequences[0];
    expect(seq.label).toBe('RS seed 1993');
    // the raw numpy order, split into tasks of 10 (each task listed sorted)
    expect(seq.tasks[0]).toEqual([8, 23, 56, 65, 68, 74, 76, 78, 84, 90]);
  });
  it('all protocols on Fashion-MNIST 0–5 with WordNet: public fields and the synsets used', async () => {
    const r = await cli('orders', '--dataset', 'fashion-mnist', '--subset', '0-5', '--tasks', '3');
    expect(r.json.omega).toBe('90');
    expect(r.json.similarity.synsets).toHaveLength(6);
    for (const s of r.json.sequences) {
      expect(Object.keys(s)).toEqual(expect.arrayContaining(['protocol', 'label', 'tasks', 'order', 'score']));
      // order is the class order as drawn (RS: numpy's permutation); tasks are its sets, sorted
      expect(s.tasks.map((t: number[]) => t.length)).toEqual([2, 2, 2]);
      expect(s.tasks.flatMap((t: number[], i: number) => s.order.slice(2 * i, 2 * i + 2).sort((a: number, b: number) => a - b))).toEqual(s.tasks.flat());
      if (s.protocol !== 'rs') expect(s.order).toEqual(s.tasks.flat());
    }
    expect(r.json.exact.enumerated).toBe(90);
  });
  it("says the Orderings page's verdict in the same words: on Fashion-MNIST 0–5 EDGE hard and easy tie", async () => {
    const r = await cli('orders', '--dataset', 'fashion-mnist', '--subset', '0-5', '--tasks', '3');
    expect(r.code).toBe(0);
    const score = (label: string) => r.json.sequences.find((s: any) => s.label === label).score as number;
    const byId = new Map<string, string>(r.json.verdict.map((s: any) => [s.id, s.text]));
    // the tie is the finding because the printed scores tie; the exact extremes are the printed ones
    expect(score('EDGE hard')).toBeCloseTo(score('EDGE easy'), 12);
    expect(byId.get('edge-tie')).toContain(`S = ${score('EDGE hard').toFixed(4)}`);
    expect(byId.get('gap')).toContain(`S = ${r.json.exact.min.toFixed(4)} (hardest) and ${r.json.exact.max.toFixed(4)} (easiest)`);
    // CIFAR-100 in 10 tasks: EDGE separates them, so no tie is claimed
    const c = await cli('orders', '--dataset', 'cifar100', '--tasks', '10', '--protocol', 'rs,edge');
    expect(c.json.verdict.map((s: any) => s.id)).not.toContain('edge-tie');
  });
  it('uses an uploaded similarity and prints PyCIL / Mammoth / Avalanche / CSV', async () => {
    const base = ['orders', '--classes', 'cat,dog,car,truck,apple,pear', '--tasks', '3', '--protocol', 'edge', '--similarity', `file:${fx('sim6.json')}`];
    const pycil = await cli(...base, '--format', 'pycil');
    // several orderings: one JSON object keyed by label
    expect(Object.keys(pycil.json)).toEqual(['EDGE hard', 'EDGE easy', 'EDGE median (seed 0)']);
    expect(pycil.json['EDGE hard'].class_order).toHaveLength(6);
    out = '';
    expect((await cli(...base, '--format', 'mammoth')).json).toMatch(/--custom_class_order \d(,\d){5}/);
    out = '';
    expect((await cli(...base, '--format', 'avalanche')).json).toMatch(/^fixed_class_orders = \{$/m);
    out = '';
    expect((await cli(...base, '--format', 'csv')).json.split('\n')[0]).toBe('protocol,label,score,order,tasks,class_names');
  });
  it('custom names pick a WordNet sense and say which', async () => {
    const r = await cli('orders', '--classes', 'tiger,apple,truck,bicycle', '--tasks', '2', '--protocol', 'edge');
    const tiger = r.json.similarity.synsets.find((s: any) => s.name === 'tiger');
    expect(tiger.source).toBe('picked');
    expect(tiger.gloss).toMatch(/feline/i);
  });
});

describe('cil-lab score / similarity / bounds', () => {
  it('score equals numpy on the fixture for equal and unequal task sizes', async () => {
    for (const c of expected.cases) {
      out = '';
      const sizes = c.sizes.join(',');
      const r = await cli('score', '--order', c.order.join(','), '--task-sizes', sizes, '--similarity', `file:${fx('sim6.npy')}`);
      expect(r.code).toBe(0);
      expect(r.json.score).toBeCloseTo(c.score, 12);
      expect(r.json.pairMean).toBeCloseTo(c.pairMean, 12);
    }
  });
  it('similarity writes the WordNet matrix and the synsets used', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cil-'));
    const r = await cli('similarity', '--source', 'wordnet', '--dataset', 'cifar10', '--out', join(dir, 's.json'));
    expect(r.json.classes).toBe(10);
    const file = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    expect(file.matrix).toHaveLength(10);
    expect(file.matrix[0][0]).toBe(1);
    expect(file.synsets.find((s: any) => s.name === 'cat').lemma).toMatch(/cat/);
  });
  it('similarity from embeddings is their cosine', async () => {
    const r = await cli('similarity', '--source', `file:${fx('emb6.npy')}`, '--classes', 'a,b,c,d,e,f');
    const ref = JSON.parse(readFileSync(fx('sim6.json'), 'utf8')).matrix;
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(r.json.matrix[i][j]).toBeCloseTo(ref[i][j], 6);
  });
  it('bounds: Theorem 1 and 2 for a huge Ω', async () => {
    const r = await cli(
      'bounds',
      '--omega',
      '235707458939304389640931968316130209128979624196658578574141046497349714005349706689167360000',
      '--epsilon',
      '0.1',
      '--delta',
      '0.05',
    );
    expect(Number(r.json.theorem1.L)).toBeGreaterThan(10000);
    expect(Number(r.json.theorem1.L)).toBeLessThan(20000);
  });
});

describe('bad input: a clear message on stderr, exit 2, nothing on stdout', () => {
  const cases: [string, string[], RegExp][] = [
    ['task sizes not summing to N', ['count', '--classes', '6', '--task-sizes', '2,2'], /sum to 4.*6 classes/],
    ['K > N', ['count', '--classes', '3', '--tasks', '4'], /K ≤ N/],
    ['duplicate class names', ['orders', '--classes', 'cat,dog,Cat,pear', '--tasks', '2'], /"Cat" appears twice/],
    ['empty class name', ['orders', '--classes', 'cat,,dog,pear', '--tasks', '2'], /Class 2 has an empty name/],
    [
      'unknown dataset',
      ['orders', '--dataset', 'imagenet21k', '--tasks', '2'],
      /Unknown --dataset "imagenet21k": the built-in datasets are fashion-mnist, digits, emoji, cifar10/,
    ],
    ['ragged rows', ['orders', '--classes', 'a,b', '--tasks', '2', '--similarity', `file:${fx('ragged.json')}`], /row 2 has 3 values|ragged|values/i],
    ['non-square matrix', ['orders', '--classes', 'a,b', '--tasks', '2', '--similarity', `file:${fx('nonsquare.json')}`], /must be square \(2×2\)/],
    ['non-symmetric matrix', ['orders', '--classes', 'a,b,c,d,e,f', '--tasks', '2', '--similarity', `file:${fx('asymmetric.json')}`], /symmetric/i],
    ['NaN in matrix', ['orders', '--classes', 'a,b,c', '--tasks', '3', '--similarity', `file:${fx('nan.csv')}`], /NaN|not a number/i],
    ['unreadable upload', ['orders', '--classes', 'a,b,c', '--tasks', '3', '--similarity', `file:${fx('garbage.npy')}`], /npy/i],
    ['missing file', ['orders', '--classes', 'a,b', '--tasks', '2', '--similarity', 'file:/nonexistent/x.json'], /Cannot read the similarity file .*ENOENT/],
    ['exact over the limit', ['orders', '--dataset', 'cifar100', '--tasks', '10', '--protocol', 'exact'], /2\.357e92.*sampled protocol/],
    ['unknown protocol', ['orders', '--dataset', 'cifar10', '--tasks', '2', '--protocol', 'lucky'], /Unknown protocol "lucky"/],
    ['unknown format', ['orders', '--dataset', 'cifar10', '--tasks', '2', '--format', 'xml'], /Unknown --format "xml"/],
    ['unknown option', ['count', '--clases', '6'], /Unknown option '--clases'/],
    ['bad epsilon', ['bounds', '--omega', '90', '--epsilon', '2'], /epsilon/i],
  ];
  for (const [name, argv, message] of cases) {
    it(name, async () => {
      const r = await cli(...argv);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(out).toBe('');
    });
  }
});

describe('the installed bin', () => {
  it('`node bin/cil-lab.mjs count` prints JSON and exits 0; a bad call exits non-zero', () => {
    const ok = execFileSync(process.execPath, ['bin/cil-lab.mjs', 'count', '--classes', '10', '--tasks', '5'], { encoding: 'utf8' });
    expect(JSON.parse(ok).omega).toBe('113400');
    expect(() => execFileSync(process.execPath, ['bin/cil-lab.mjs', 'count', '--classes', 'x'], { stdio: 'pipe' })).toThrow();
  });
});
