/**
 * The CLI on the surfaces added last — feature files, the Your-classes samples zip, cpcf — under the hostile inputs
 * that once crashed it, hung it or were accepted as nonsense: each now runs a case or exits 2 with one line naming
 * the flag or the bound. Every file is made here, small (tests/unit/drills/hostile-files.ts); the long forms (the
 * 800 MB .npz, the 1.5 GB PNG bomb through the whole command) are in `npm run drills`.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, commandNamed } from '../../../src/cli/commands';
import { LABS } from '../../../src/core/labs';
import { writeFeaturesNpz } from '../../../src/data/features/npz';
import { writeSamplesZip } from '../../../src/data/own-samples-zip';
import { solidPng } from '../drills/broken-upload-corpus';
import { honestNpz, lyingNpz, pngOverZeros } from '../drills/hostile-files';
import { captureCli } from './capture';

const cli = captureCli();
const tmp = mkdtempSync(join(tmpdir(), 'cil-new-surfaces-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const ENCODER = 'tests/fixtures/clip-vision-tiny';
const file = (name: string) => join(tmp, name);

/** A feature set of `rows` rows per class in 8 dimensions: classes 0–5 have rows, class_names names ten. */
function sixOfTen(opts: { split?: boolean } = {}): Uint8Array {
  const perClass = 20;
  const n = 6 * perClass;
  const d = 8;
  const features = new Float32Array(n * d);
  const labels = new Int32Array(n);
  const split = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = Math.floor(i / perClass);
    labels[i] = c;
    split[i] = opts.split === false ? 0 : i % perClass < 5 ? 1 : 0;
    for (let j = 0; j < d; j++) features[i * d + j] = (j === c ? 3 : 0) + Math.sin(i * 7 + j); // class c lights dimension c
  }
  return writeFeaturesNpz({ features, n, d, labels, split, classNames: Array.from({ length: 10 }, (_, k) => `class ${k}`) });
}

beforeAll(() => {
  writeFileSync(file('six.npz'), sixOfTen());
  writeFileSync(file('six-nosplit.npz'), sixOfTen({ split: false }));
  const px = (k: number) => solidPng(8, 8, [30 * k, 200 - 20 * k, 90]);
  writeFileSync(file('one-class.zip'), writeSamplesZip([{ name: 'mug', train: [px(1), px(2), px(3)], test: [px(4), px(5)] }]));
  writeFileSync(
    file('bomb.zip'),
    writeSamplesZip([
      { name: 'a', train: [px(1), px(2)], test: [px(3)] },
      { name: 'b', train: [pngOverZeros(1_500_000_000), px(4)], test: [px(5)] },
    ]),
  );
  const many = Array.from({ length: 201 }, (_, k) => px(k % 8));
  writeFileSync(file('many.zip'), writeSamplesZip([{ name: 'a', train: many, test: [px(1)] }]));
  // a sparse 300 MB file: the bounded reader refuses it from its size, without reading it
  const fd = openSync(file('huge.zip'), 'w');
  ftruncateSync(fd, 300 * 1024 * 1024);
  closeSync(fd);
  writeFileSync(file('bad-label.npz'), honestNpz(10_000, 10_000, { bad: 'label' }));
  writeFileSync(file('lying.npz'), lyingNpz());
});

describe('own-classes on hostile samples zips', () => {
  it('refuses a PNG bomb, a file past the input bound and a zip past the lab’s samples bound, each in one line', async () => {
    const bomb = await cli('own-classes', '--samples', file('bomb.zip'), '--encoder', ENCODER);
    expect(bomb.code).toBe(2);
    expect(bomb.err).toBe(
      'cil-lab: --samples: “b” sample 1: its image data inflates to more than the 4 bytes its 1×1 header promises (the file is damaged, or a decompression bomb).\n',
    );
    const huge = await cli('own-classes', '--samples', file('huge.zip'), '--encoder', ENCODER);
    expect([huge.code, huge.err]).toEqual([2, expect.stringMatching(/it is larger than 256 MiB, the most cil-lab reads from one file/)]);
    const many = await cli('own-classes', '--samples', file('many.zip'), '--encoder', ENCODER);
    expect([many.code, many.err]).toEqual([
      2,
      'cil-lab: “a” has 201 training and 1 test samples; the lab takes at most 200 and 100 per class: give --train-per-class N --test-per-class N to take the first ones.\n',
    ]);
  });

  it('refuses a sample that is not an image instead of dropping it', async () => {
    const png = solidPng(8, 8);
    const z = zipSync({
      'your-classes': {
        'classes.txt': strToU8('a\nb\n'),
        a: { train: { '001.png': png, '002.png': png }, test: { '001.png': png } },
        b: { train: { '001.png': png, '002.png': png.subarray(0, 7) }, test: { '001.png': png } }, // a PNG cut short
      },
    });
    writeFileSync(file('not-png.zip'), z);
    const r = await cli('own-classes', '--samples', file('not-png.zip'), '--encoder', ENCODER);
    expect([r.code, r.err]).toEqual([
      2,
      'cil-lab: --samples: not-png.zip: "your-classes/b/train/002.png": not an image despite its .png name; a sample that cannot be read is not left out silently — remove it or replace it\n',
    ]);
  });

  it('runs the lab’s own one-class export', { timeout: 60_000 }, async () => {
    const r = await cli('own-classes', '--samples', file('one-class.zip'), '--encoder', ENCODER, '--precision', 'fp32', '--strategy', 'simplecil');
    expect(r.code, r.err).toBe(0);
    expect(r.json.classes).toEqual(['mug']);
    expect(r.json.samples).toEqual([{ name: 'mug', train: 3, test: 2 }]);
    expect(r.json.strategies[0].matrix).toEqual([[1]]);
  });
});

describe('feature files', () => {
  it('a file naming ten classes with rows of six trains those six by default', async () => {
    for (const strategy of ['simplecil', 'finetune']) {
      const r = await cli('run', '--features', file('six.npz'), '--tasks', '3', '--strategy', strategy, ...(strategy === 'finetune' ? ['--epochs', '1'] : []));
      expect(r.code, `${strategy}: ${r.err}`).toBe(0);
      expect(r.json.classes).toEqual(['class 0', 'class 1', 'class 2', 'class 3', 'class 4', 'class 5']);
      expect(r.json.tasks).toEqual([
        [0, 1],
        [2, 3],
        [4, 5],
      ]);
    }
  });

  it('a file without a test split holds out 20% of each class for every strategy, with a note, the same rows for each', async () => {
    const counts: number[][] = [];
    for (const [strategy, extra] of [
      ['simplecil', []],
      ['ranpac', ['--strategy-options', 'projection=64']],
      ['fecam', []],
      ['finetune', ['--epochs', '1']],
    ] as const) {
      const r = await cli('run', '--features', file('six-nosplit.npz'), '--tasks', '2', '--strategy', strategy, ...extra);
      expect(r.code, `${strategy}: ${r.err}`).toBe(0);
      expect(r.err).toContain('note: the feature file has no test split: 20% of each class (numpy default_rng(0)) is held out as test data');
      counts.push(r.json.testCounts);
    }
    expect(counts[0]).toEqual([12, 12]); // 4 of 20 rows per class, 3 classes per task
    for (const c of counts) expect(c).toEqual(counts[0]);
  });

  it('checks the small members before the 800 MB one: a bad label is named, a lying directory refused', async () => {
    const bad = await cli('run', '--features', file('bad-label.npz'), '--tasks', '2', '--strategy', 'simplecil');
    expect([bad.code, bad.err]).toEqual([2, 'cil-lab: Row 9999 has label 15, outside the 10 classes (0–9).\n']);
    const lying = await cli('run', '--features', file('lying.npz'), '--tasks', '2', '--strategy', 'simplecil');
    expect(lying.code).toBe(2);
    // its directory says 8 MB where the array's header says 800 MB: refused from the header, or once the stream passes 8 MB
    expect(lying.err).toMatch(
      /^cil-lab: (lying\.npz cannot be read: zip member "features\.npy" inflates to more than the 8,000,000 bytes its directory declares|features\.npy is truncated: \(10000, 10000\) of <f8 needs 800 000 000 bytes)/,
    );
  });
});

describe('cpcf', () => {
  it('refuses a pre-trained method in one line, and runs two tasks with one CPCF point and no dCor', async () => {
    const ptm = await cli('cpcf', '--features', file('six.npz'), '--tasks', '2', '--strategy', 'simplecil');
    expect(ptm.code).toBe(2);
    expect(ptm.err).toMatch(/^cil-lab: --strategy simplecil: CPCF measures how a trained network's softmax outputs change/);
    const two = await cli(
      'cpcf',
      '--features',
      file('six.npz'),
      '--classes',
      '0-3',
      '--tasks',
      '2',
      '--epochs',
      '2',
      '--first-epochs',
      '20',
      '--lr',
      '0.01',
      '--seeds',
      '0-1',
    );
    expect(two.code, two.err).toBe(0);
    expect(two.json.runs).toHaveLength(2);
    for (const run of two.json.runs) expect(run.cpcf).toHaveLength(1);
    expect(two.json.summary.dcor).toBeNull();
    expect(two.json.summary.permutation).toBeNull();
    expect(two.json.summary.notComparable).toContain("too few points: 1 per run, the paper's setup has 5");
    expect(two.err).toMatch(/dCor\(CPCF, a_prev\) – \(1 CPCF point: it needs 3 tasks or more\)/);
  });
});

describe('flags that would change nothing, and values that are not what they look like', () => {
  const ptm = ['run', '--features', 'F', '--tasks', '3', '--strategy', 'simplecil'];
  it.each([
    [[...ptm, '--epochs', '5'], '--epochs is not read here: --strategy simplecil trains nothing without a first-session layer'],
    [[...ptm, '--lr', '0.1'], '--lr is not read here'],
    [[...ptm, '--memory', '20'], '--memory is not read here: --strategy simplecil is a pre-trained method on frozen features'],
    [[...ptm, '--model', 'cnn'], '--model is not read here'],
    [[...ptm, '--augment', 'on'], '--augment is not read here'],
    [[...ptm, '--backend', 'wasm'], '--backend is not read here'],
    [[...ptm, '--strategy-options', 'firstSession=16', '--epochs', '0'], '--epochs must be at least 1; got 0.'],
    [
      ['run', '--features', 'F', '--tasks', '3', '--strategy', 'ranpac', '--strategy-options', 'projection=0x10'],
      'projection must be a number written in decimal',
    ],
    [[...ptm, '--strategy-options', 'metric=cosine,metric=euclidean'], '--strategy-options gives metric twice; give each option once.'],
    [[...ptm, '--strategy-options', ',,,'], '--strategy-options ",,," has an empty entry'],
    [['run', '--dataset', 'digits', '--tasks', '2', '--lr', '0x10'], '--lr must be a number; got "0x10".'],
    [['ood', '--dataset', 'digits', '--classes', '0-3', '--tasks', '2', '--order', '0,1,2,3', '--protocol', 'rs'], 'not --order and --protocol.'],
    [['stream', '--model', 'cnn', '--hidden', '5'], '--hidden is not read here: --model cnn has fixed layers'],
  ])('%j exits 2: %s', async (argv, message) => {
    const r = await cli(...argv.map((a) => (a === 'F' ? file('six.npz') : a)));
    expect(r.code).toBe(2);
    expect(r.err.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.err).toContain(message);
  });

  it('a first-session layer reads --epochs', async () => {
    const r = await cli(
      'run',
      '--features',
      file('six.npz'),
      '--tasks',
      '3',
      '--strategy',
      'simplecil',
      '--strategy-options',
      'firstSession=16',
      '--epochs',
      '1',
    );
    expect(r.code, r.err).toBe(0);
  });
});

describe('help', () => {
  it('each lab’s config command (what “What ran” prints) takes --config', () => {
    for (const lab of LABS) {
      const command = (lab as { configCommand?: string }).configCommand;
      if (command === undefined) continue;
      expect(lab.commands, lab.id).toContain(command);
      expect(commandNamed(command)?.flags, lab.id).toContain('config');
    }
    expect(LABS.filter((l) => (l as { configCommand?: string }).configCommand === undefined).map((l) => l.id)).toEqual(['own-classes']);
  });

  it('the command table is what dispatch reads: every lab’s commands are entries, each once', async () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const lab of LABS) for (const command of lab.commands) expect(names, lab.id).toContain(command);
    const top = await cli('--help');
    for (const name of names) expect(top.out, name).toContain(`  cil-lab ${name} `);
  });

  it('a command’s --help lists its usage and exactly the flags of its entry, and no other command’s lines', async () => {
    for (const c of COMMANDS) {
      const r = await cli(c.name, '--help');
      const flagsLine = r.out.split('\n').find((l) => l.startsWith('flags: '));
      expect(flagsLine, c.name).toBe(`flags: ${c.flags.map((f) => `--${f}`).join(' ')}`);
      const usages = r.out.split('\n').filter((l) => /^ +cil-lab [a-z-]+/.test(l));
      for (const u of usages) expect(u.trim().split(' ')[1], c.name).toBe(c.name);
    }
  });

  it('a flag outside a command’s entry is refused in one line, exit 2', async () => {
    const r = await cli('bounds', '--omega', '90', '--seed', '1');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--seed is not a flag of cil-lab bounds/);
  });

  it('every command’s --help starts with its usage line (analyze’s was empty)', async () => {
    for (const { name: command } of COMMANDS) {
      const r = await cli(command, '--help');
      expect(r.code).toBe(0);
      const lines = r.out.split('\n');
      expect(lines[2], command).toMatch(new RegExp(`^ {2}cil-lab ${command} `));
    }
  });
});
