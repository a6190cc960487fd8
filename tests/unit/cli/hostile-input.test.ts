/**
 * The CLI under hostile and clumsy use: WordNet pins from --config/--link, bounds (devices, huge samples, huge
 * links), exit 2 with a clear message on bad input, RS orderings exported as numpy drew them, and a multi-ordering
 * PyCIL export that parses.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatConfigFile } from '../../../src/core/config/config-file';
import { validateConfig } from '../../../src/core/config/schema';
import { encodeConfigToHash } from '../../../src/core/config/url-codec';
import { wordnetPinsFor } from '../../../src/core/config/wordnet-pins';
import { computeOrderingsView } from '../../../src/core/protocols/orderings-view';
import type { WordnetGraph } from '../../../src/core/similarity/wordnet-synsets';
import { readInput } from '../../../src/cli/inputs';
import { captureCli } from './capture';

const cli = captureCli();
const tmp = mkdtempSync(join(tmpdir(), 'cil-hostile-'));
const graph = () => JSON.parse(readFileSync('public/data/wordnet-nouns.json', 'utf8')) as WordnetGraph;

// custom classes with "cat" pinned to another sense (n02986962: the tracked vehicle) than WordNet's first pick
const PINS = { cat: 'n02986962' };
const NAMES = ['cat', 'dog', 'car', 'bus'];
const pinned = validateConfig({
  dataset: { id: 'custom', classNames: NAMES },
  taskSizes: [2, 2],
  similarity: { kind: 'wordnet', pins: PINS },
  protocols: { enabled: ['rs', 'edge'], rsSeeds: [0, 42] },
});

describe("WordNet pins from --link / --config give the app's numbers", () => {
  // what the app computes: the Orderings page resolves the pins with wordnetPinsFor and runs computeOrderingsView
  const app = computeOrderingsView(
    {
      classes: NAMES,
      taskSizes: [2, 2],
      similarity: { kind: 'wordnet', pins: wordnetPinsFor(PINS, NAMES) },
      options: { protocols: ['rs', 'edge'], rsSeeds: [0, 42] },
    },
    { wordnet: graph },
  );
  const unpinned = computeOrderingsView(
    { classes: NAMES, taskSizes: [2, 2], similarity: { kind: 'wordnet' }, options: { protocols: ['rs', 'edge'], rsSeeds: [0, 42] } },
    { wordnet: graph },
  );

  it('the pin changes S (so the check below can fail)', () => {
    expect(pinned.errors).toEqual([]);
    expect(app.sequences.map((s) => s.score)).not.toEqual(unpinned.sequences.map((s) => s.score));
  });
  it('orders --link: the same S for every ordering as the app, and cat on the pinned synset', async () => {
    const r = await cli('orders', '--link', encodeConfigToHash(pinned.config));
    expect(r.code).toBe(0);
    expect(r.json.similarity.synsets[0].synsetId).toBe('n02986962');
    expect(r.json.sequences.map((s: { label: string; score: number }) => [s.label, s.score])).toEqual(app.sequences.map((s) => [s.label, s.score]));
  });
  it('orders --config and similarity --link too; a pin for a class given on the command line by name still applies', async () => {
    const file = join(tmp, 'pinned.json');
    writeFileSync(file, formatConfigFile(pinned.config));
    const r = await cli('orders', '--config', file);
    expect(r.json.sequences.map((s: { score: number }) => s.score)).toEqual(app.sequences.map((s) => s.score));
    const sim = await cli('similarity', '--link', encodeConfigToHash(pinned.config));
    expect(sim.json.matrix).toEqual(app.matrix);
    const other = await cli('orders', '--link', encodeConfigToHash(pinned.config), '--classes', 'bus,cat,dog', '--tasks', '3');
    expect(other.json.similarity.synsets[1]).toMatchObject({ name: 'cat', synsetId: 'n02986962' });
  });
});

describe('class names that are Object.prototype keys', () => {
  it('"constructor" is a class name like any other (WordNet and pins by name; it used to fail with "exc is not iterable")', async () => {
    const r = await cli('orders', '--classes', 'constructor,dog,car,bus', '--tasks', '2', '--protocol', 'rs');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.json.sequences).toHaveLength(3);
    expect(r.json.similarity.synsets[0]).toMatchObject({ name: 'constructor', lemma: 'builder' });
    expect(wordnetPinsFor({ dog: 'n02086723' }, ['constructor', 'dog'])).toEqual([undefined, 'n02086723']);
  });
});

describe('bounds before work', () => {
  it('--similarity file:/dev/zero is refused at once (a device), not read forever', async () => {
    const t0 = performance.now();
    const r = await cli('orders', '--classes', 'a,b', '--tasks', '2', '--similarity', 'file:/dev/zero');
    expect(r.code).toBe(2);
    expect(r.err).toBe('cil-lab: Cannot read the similarity file "/dev/zero": it is a device; give a regular file.\n');
    expect(performance.now() - t0).toBeLessThan(2000);
  });
  it('a file over the bound is refused with the bound named', () => {
    const big = join(tmp, 'big.json');
    writeFileSync(big, '['.padEnd(4096, ' '));
    expect(() => readInput(big, 'the similarity file', 1024)).toThrow(
      'Cannot read the similarity file "' + big + '": it is larger than 1024 bytes, the most cil-lab reads from one file.',
    );
    expect(readInput(big, 'the similarity file', 4096)).toHaveLength(4096);
  });
  it('enumerate --sample 1000000000 is refused before any draw', async () => {
    const t0 = performance.now();
    const r = await cli('enumerate', '--classes', '100', '--tasks', '10', '--sample', '1000000000');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--sample is at most 1000000 .*got 1000000000/);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
  it('a 130 000-character --link is refused by its length at once', async () => {
    const t0 = performance.now();
    const r = await cli('count', '--link', `#v1.${'.'.repeat(130_000)}x`);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/This link is too long \(130005 characters/);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});

describe('bad input exits 2 with one clear line', () => {
  const one = async (argv: string[], message: RegExp | string) => {
    const r = await cli(...argv);
    expect(r.code, argv.join(' ')).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.split('\n')).toHaveLength(2);
    if (typeof message === 'string') expect(r.err).toBe(`cil-lab: ${message}\n`);
    else expect(r.err).toMatch(message);
  };
  it('count --task-sizes 3,,3 is an error, not [3, 3]', () =>
    one(['count', '--classes', '6', '--task-sizes', '3,,3'], '--task-sizes: entry 2 of "3,,3" is empty (two commas in a row, or a comma at an end).'));
  it("one class is refused with the app's message; --classes abc hints at commas", async () => {
    await one(
      ['orders', '--classes', 'cat', '--tasks', '1'],
      /^cil-lab: Select at least two classes\. --classes "cat" is one class name; separate class names with commas/,
    );
    await one(
      ['count', '--classes', 'abc', '--tasks', '3'],
      /^cil-lab: Select at least two classes\. --classes "abc" is one class name; separate class names with commas \(e\.g\. --classes cat,dog,car\)\.$/m,
    );
    await one(['orders', '--dataset', 'cifar10', '--subset', '3', '--tasks', '1'], 'Select at least two classes. --subset gives one class ("cat").');
  });
  it('a number of classes says "1 class", not "1 classes"', () =>
    one(['count', '--classes', '1', '--tasks', '3'], '3 tasks cannot be made from 1 class: every task needs at least one class (K ≤ N).'));
  it('run --epochs 0 is refused', () => one(['run', '--dataset', 'digits', '--tasks', '5', '--epochs', '0'], '--epochs must be at least 1; got 0.'));
  it('negative numbers are values: one line saying what is wrong, not node\'s "ambiguous" message', async () => {
    await one(['count', '--classes', '6', '--tasks', '-3'], '--tasks must be at least 1; got -3.');
    await one(['enumerate', '--classes', '6', '--tasks', '3', '--sample', '2', '--seed', '-1'], '--seed must be at least 0; got -1.');
    await one(['bounds', '--omega', '90', '--epsilon', '-0.1'], /ε \(epsilon\) must be a number in \(0, 1\]; got -0\.1/);
    await one(['orders', '--classes', '-cat,dog', '--tasks', '1'], /--classes needs a value; to give one that starts with "-", write --classes=-…/);
  });
  it('a binary --classes-file is one line, not its bytes', async () => {
    const bin = join(tmp, 'classes.bin');
    writeFileSync(
      bin,
      Uint8Array.from({ length: 4000 }, (_, i) => (i * 131) % 256),
    );
    await one(
      ['orders', '--classes-file', bin, '--tasks', '2'],
      `The class file "${bin}" is not a text file (it holds binary data, e.g. a zero byte at offset 0).`,
    );
  });
  it('--out into a missing folder names the folder', async () => {
    const sim = join(tmp, 'sim.json');
    writeFileSync(
      sim,
      JSON.stringify({
        classes: ['a', 'b'],
        matrix: [
          [1, 0.5],
          [0.5, 1],
        ],
      }),
    );
    const target = join(tmp, 'missing', 'out.json');
    await one(
      ['similarity', '--source', `file:${sim}`, '--classes', 'a,b', '--out', target],
      `Cannot write --out "${target}": the folder "${join(tmp, 'missing')}" does not exist (create it first).`,
    );
    mkdirSync(join(tmp, 'missing'));
    expect((await cli('similarity', '--source', `file:${sim}`, '--classes', 'a,b', '--out', target)).code).toBe(0);
  });
  it('protocols.enabled = [] opens as in the app: no orderings, a note, exit 0', async () => {
    const none = validateConfig({ classes: [0, 1, 2, 3], taskSizes: [2, 2], protocols: { enabled: [] } });
    expect(none.errors).toEqual([]);
    const r = await cli('orders', '--link', encodeConfigToHash(none.config));
    expect(r.code).toBe(0);
    expect(r.json.sequences).toEqual([]);
    expect(r.json.omega).toBe('6');
    expect(r.err).toMatch(/note: no protocol is enabled/);
  });
  it('"has no an order column" reads "lacks an order column"', async () => {
    const csv = join(tmp, 'runs.csv');
    writeFileSync(csv, 'a,b\n1,2\n');
    const r = await cli('analyze', '--results', csv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/lacks an order column/);
    expect(r.err).not.toMatch(/no an /);
  });
  it('the installed bin: --similarity file:/dev/zero and a negative value end at once, one line, no stack trace', () => {
    for (const argv of [
      ['orders', '--classes', 'a,b', '--tasks', '2', '--similarity', 'file:/dev/zero'],
      ['count', '--classes', '6', '--tasks', '-3'],
    ]) {
      const t0 = performance.now();
      const p = spawnSync(process.execPath, ['bin/cil-lab.mjs', ...argv], { encoding: 'utf8', timeout: 30_000 });
      expect(p.status).toBe(2);
      expect(p.stdout).toBe('');
      expect(p.stderr.trim().split('\n')).toHaveLength(1);
      expect(p.stderr).not.toMatch(/\s at /);
      expect(performance.now() - t0).toBeLessThan(20_000);
    }
  });
});

describe('orders exports: RS as numpy drew it, several orderings in one file', () => {
  it("RS seed 1993 on CIFAR-100: order, PyCIL, Mammoth and CSV carry numpy's permutation as drawn", async () => {
    const argv = ['orders', '--dataset', 'cifar100', '--tasks', '10', '--protocol', 'rs', '--seeds', '1993'];
    const json = await cli(...argv);
    expect(json.json.sequences[0].order.slice(0, 5)).toEqual([68, 56, 78, 8, 23]);
    const pycil = await cli(...argv, '--format', 'pycil');
    expect(pycil.json['RS seed 1993'].class_order.slice(0, 5)).toEqual([68, 56, 78, 8, 23]);
    expect((await cli(...argv, '--format', 'mammoth')).out).toContain('--custom_class_order 68,56,78,8,23,');
    expect((await cli(...argv, '--format', 'csv')).out.split('\n')[1]).toContain(',68 56 78 8 23 ');
  });
  it('orders --format pycil with every protocol is one JSON object keeping all 14 orderings', async () => {
    const r = await cli('orders', '--dataset', 'fashion-mnist', '--subset', '0-5', '--tasks', '3', '--format', 'pycil');
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.out) as Record<string, { class_order: number[] }>;
    expect(Object.keys(parsed)).toHaveLength(14);
    for (const v of Object.values(parsed)) expect([...v.class_order].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });
  it('CSV class names that would run as formulas are neutralised in orders --format csv', async () => {
    const sim = join(tmp, 'sim4.json');
    const names = ['=1+1', '+cmd', '@SUM(A1)', 'pear'];
    writeFileSync(
      sim,
      JSON.stringify({
        classes: names,
        matrix: [
          [1, 0.5, 0.2, 0.1],
          [0.5, 1, 0.3, 0.2],
          [0.2, 0.3, 1, 0.4],
          [0.1, 0.2, 0.4, 1],
        ],
      }),
    );
    const r = await cli('orders', '--classes', names.join(','), '--tasks', '2', '--protocol', 'edge', '--similarity', `file:${sim}`, '--format', 'csv');
    expect(r.code).toBe(0);
    for (const row of r.out.trim().split('\n').slice(1)) {
      const names = row.split(',').at(-1)!;
      expect(names).toMatch(/^'/);
    }
  });
});
