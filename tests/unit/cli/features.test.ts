/**
 * `cil-lab features` and `--features` (src/cli/features.ts, run.ts), on digits (8×8, fast) and the tiny image
 * encoder fixture, offline: the .npz written is what the engine computes (the app's feature job calls the same
 * functions), `run --features` trains the head on exactly those features (the .npz alone gives the same numbers as
 * the source computed on the fly, and as the engine run directly), `--similarity features` is the cosine of the class
 * prototypes, and every refusal is one line with exit code 2.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig } from '../../../src/core/config/schema';
import { classMeanPrototypes } from '../../../src/core/similarity/prototypes';
import { cosineSimilarity } from '../../../src/core/similarity/cosine';
import { loadBuiltinDataset } from '../../../src/data/registry';
import { readFeaturesNpz } from '../../../src/data/features/npz';
import { selectBackend } from '../../../src/engine/backend';
import { createImageEncoder } from '../../../src/engine/clip/image-encoder';
import { fromDecodedDataset } from '../../../src/engine/dataset';
import { featureDatasetOf } from '../../../src/engine/features/dataset';
import { backboneFeatureSet, encoderFeatureSet } from '../../../src/engine/features/extract';
import { trainRun } from '../../../src/engine/trainer';
import { captureCli } from './capture';

const haveDigits = existsSync(join('public', 'data', 'digits', 'meta.json'));
const cli = captureCli();
let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'cil-features-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const digits = async () => fromDecodedDataset(await loadBuiltinDataset('digits', async (p) => new Uint8Array(await readFile(join('public', p)))));
/** `cil-lab features` on digits 0 and 1 through the fixture encoder `model` (tests/fixtures/MODEL), per-class counts, into `out`. */
const encoderOnDigits = (model: string, trainPerClass: number, testPerClass: number, out: string, ...more: string[]) =>
  cli(
    'features',
    '--dataset',
    'digits',
    '--classes',
    '0,1',
    '--source',
    `encoder:tests/fixtures/${model}`,
    ...more,
    '--train-per-class',
    `${trainPerClass}`,
    '--test-per-class',
    `${testPerClass}`,
    '--out',
    out,
  );

describe.skipIf(!haveDigits)('cil-lab features', () => {
  it('--source backbone writes the engine’s features of the chosen classes, labelled with the classes it was pre-trained on', async () => {
    const out = join(tmp, 'bb.npz');
    const r = await cli(
      'features',
      '--dataset',
      'digits',
      '--classes',
      '0-5',
      '--source',
      'backbone',
      '--backbone-seed',
      '3',
      '--train-per-class',
      '20',
      '--out',
      out,
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.json.source).toBe('backbone');
    expect(r.json.label).toBe('stand-in backbone trained on six, seven, eight and nine (seed 3)');
    expect(r.json.backbone.classes).toEqual([6, 7, 8, 9]);
    expect(r.json.d).toBe(128);
    expect(r.json.classes).toEqual(['zero', 'one', 'two', 'three', 'four', 'five']);
    expect(r.json.n.train).toBe(120);
    expect(r.json.out).toBe(out);
    const set = readFeaturesNpz(readFileSync(out));
    const direct = await backboneFeatureSet(await digits(), { classes: [0, 1, 2, 3, 4, 5], trainPerClass: 20, testPerClass: null }, 3);
    expect(set.n).toBe(direct.set.n);
    expect(Array.from(set.features)).toEqual(Array.from(direct.set.features));
    expect(Array.from(set.labels)).toEqual(Array.from(direct.set.labels));
    expect(r.json.n.test).toBe(direct.set.split.reduce((a, b) => a + b, 0));
  });

  it('--source encoder:FOLDER runs the fixture encoder through transformers.js, as the engine does', async () => {
    const out = join(tmp, 'enc.npz');
    const r = await encoderOnDigits('clip-vision-tiny', 6, 3, out, '--precision', 'fp32');
    expect(r.code).toBe(0);
    expect(r.json.model).toMatchObject({ id: 'clip-vision-tiny', precision: 'fp32', device: 'cpu', modelType: 'clip', output: 'image_embeds' });
    expect(r.json.d).toBe(16);
    expect(r.json.n).toEqual({ train: 12, test: 6 });
    const enc = await createImageEncoder({
      modelId: 'clip-vision-tiny',
      precision: 'fp32',
      device: 'cpu',
      source: { kind: 'self-hosted', path: resolve('tests/fixtures') },
    });
    const direct = await encoderFeatureSet(await digits(), { classes: [0, 1], trainPerClass: 6, testPerClass: 3 }, enc);
    await enc.dispose();
    const set = readFeaturesNpz(readFileSync(out));
    set.features.forEach((x, i) => expect(Math.abs(x - direct.features[i])).toBeLessThan(1e-6));
  });

  it('--source encoder:FOLDER with the ViT fixture (its real preprocessing): the [CLS] token after the final LayerNorm', async () => {
    const out = join(tmp, 'vit.npz');
    const r = await encoderOnDigits('vit-tiny', 3, 2, out);
    expect(r.err).toBe('');
    expect(r.json.model).toMatchObject({ id: 'vit-tiny', precision: 'q8', device: 'cpu', modelType: 'vit', output: 'last_hidden_state[:, 0]' });
    expect(r.json.d).toBe(16);
    expect(r.json.n).toEqual({ train: 6, test: 4 });
    const set = readFeaturesNpz(readFileSync(out));
    // the [CLS] token sees the image: its values vary, and two images get two vectors
    expect(new Set(Array.from(set.features.subarray(0, 16)).map((x) => x.toFixed(4))).size).toBeGreaterThan(8);
    expect(Array.from(set.features.subarray(0, 16))).not.toEqual(Array.from(set.features.subarray(16, 32)));
  });

  it('--probe prints probe: {backbone, pixels, untrained}, each a linear probe and a nearest mean on the same rows', async () => {
    const r = await cli('features', '--dataset', 'digits', '--classes', '0-5', '--source', 'backbone', '--probe', '--train-per-class', '40');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.json.out).toBeUndefined(); // --out is optional with --probe
    const p = r.json.probe;
    expect(Object.keys(p).slice(0, 3)).toEqual(['backbone', 'pixels', 'untrained']);
    expect([p.backbone.d, p.pixels.d, p.untrained.d]).toEqual([128, 64, 128]);
    expect(p.n).toEqual({ train: 240, test: r.json.n.test });
    for (const k of ['backbone', 'pixels', 'untrained'])
      for (const m of ['linearProbe', 'nearestMean']) {
        expect(p[k][m]).toBeGreaterThan(0.5); // digits are easy: every probe is far above chance (1/6)
        expect(p[k][m]).toBeLessThanOrEqual(1);
      }
    // pre-training changes the features: the untrained twin probes differently
    expect([p.untrained.linearProbe, p.untrained.nearestMean]).not.toEqual([p.backbone.linearProbe, p.backbone.nearestMean]);
    expect(p.verdict).toMatch(/^The backbone/);
    const refused = await cli('features', '--dataset', 'digits', '--classes', '0,1', '--source', 'encoder:tests/fixtures/vit-tiny', '--probe');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/--probe compares the embedded backbone/);
  });

  it('--source file:F.npz keeps the chosen classes, at most N per class', async () => {
    const out = join(tmp, 'sub.npz');
    const r = await cli('features', '--source', `file:${join(tmp, 'bb.npz')}`, '--classes', '2,4', '--test-per-class', '5', '--out', out);
    expect(r.code).toBe(0);
    expect(r.json.classes).toEqual(['two', 'four']);
    expect(r.json.n).toEqual({ train: 40, test: 10 });
  });

  it('refuses what it cannot do, in one line with exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['features', '--dataset', 'digits', '--source', 'backbone', '--out', join(tmp, 'x.npz')], /uses all 10/],
      [['features', '--dataset', 'digits', '--source', 'encoder:Xenova/clip-vit-base-patch32', '--out', join(tmp, 'x.npz')], /--allow-remote/],
      // a known encoder says its size before anything downloads
      [
        ['features', '--dataset', 'digits', '--source', 'encoder:Xenova/vit-base-patch16-224-in21k', '--precision', 'fp16', '--out', join(tmp, 'x.npz')],
        /vit-base-patch16-224-in21k \(about 172\.0 MB as fp16\) from the Hugging Face hub .*--allow-remote/,
      ],
      [['features', '--dataset', 'digits', '--source', 'pixels', '--out', join(tmp, 'x.npz')], /use backbone, encoder/],
      [['features', '--dataset', 'digits', '--classes', '0-3', '--source', 'backbone'], /--out/],
      [['features', '--source', 'backbone', '--out', join(tmp, 'x.npz')], /give --dataset/],
      [
        [
          'features',
          '--dataset',
          'digits',
          '--classes',
          '0,1',
          '--source',
          'encoder:tests/fixtures/dinov2-tiny',
          '--precision',
          'fp16',
          '--out',
          join(tmp, 'x.npz'),
        ],
        /model_fp16\.onnx was not found/,
      ],
      [['features', '--dataset', 'digits', '--classes', '0,1', '--source', 'backbone', '--out', join(tmp, 'missing', 'x.npz')], /does not exist/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
    writeFileSync(join(tmp, 'bad.npz'), 'not a zip');
    const bad = await cli('run', '--features', join(tmp, 'bad.npz'), '--tasks', '2');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/not an \.npz file/);
  });
});

describe.skipIf(!haveDigits)('--features on run, and the commands that refuse it', () => {
  beforeAll(async () => {
    await selectBackend('wasm', { strict: true });
  });

  it('an .npz alone gives the numbers of the source computed on the fly, and of the engine run directly', async () => {
    const args = ['--classes', '0-5', '--tasks', '3', '--strategy', 'replay', '--epochs', '2', '--train-per-class', '20', '--seed', '1', '--backend', 'wasm'];
    const fromFile = await cli('run', '--features', join(tmp, 'bb.npz'), ...args);
    expect(fromFile.err).toMatch(/^(note: the head is below the bar: [^\n]+\n)?$/);
    expect(fromFile.json.features).toMatchObject({ source: 'file', label: 'features from bb.npz', d: 128 });
    expect(fromFile.json.features.digest).toMatch(/^fnv1a64:[0-9a-f]{16}$/);
    expect(fromFile.json.config.model).toEqual({ kind: 'head', hidden: [] });
    const live = await cli('run', '--dataset', 'digits', '--features', 'backbone', '--backbone-seed', '3', ...args);
    expect(live.json.features.label).toBe('stand-in backbone trained on six, seven, eight and nine (seed 3)');
    expect(live.json.matrix).toEqual(fromFile.json.matrix);
    // the same numbers: the file holds exactly the features the backbone computes on the fly
    expect(live.json.features.digest).toBe(fromFile.json.features.digest);
    const set = readFeaturesNpz(readFileSync(join(tmp, 'bb.npz')));
    const direct = await trainRun(featureDatasetOf(set, [0, 1, 2, 3, 4, 5]), {
      tasks: fromFile.json.tasks,
      seed: 1,
      strategy: 'replay',
      model: { kind: 'head' },
      epochs: 2,
    });
    expect(direct.matrix).toEqual(fromFile.json.matrix);
  }, 60_000);

  it('without --epochs and --lr the head takes its settings (20 epochs at 0.01), and the run says the head’s bar', async () => {
    const r = await cli('run', '--features', join(tmp, 'bb.npz'), '--classes', '0-3', '--tasks', '2', '--strategy', 'finetune', '--order', '0,1,2,3');
    expect(r.code).toBe(0);
    expect(r.json.config).toMatchObject({ epochs: 20, firstTaskEpochs: 20, lr: 0.01 });
    // the bar: the same head trained jointly on the four classes, beside SimpleCIL on the same rows
    expect(r.json.headBar).toMatchObject({ epochs: 20, lr: 0.01, batchSize: 64, hidden: [], seed: 0 });
    expect(r.json.headBar.joint).toBeGreaterThan(0.5);
    expect(r.json.headBar.simplecil).toBeGreaterThan(0.5);
    const given = await cli(
      'run',
      '--features',
      join(tmp, 'bb.npz'),
      '--classes',
      '0-3',
      '--tasks',
      '2',
      '--strategy',
      'finetune',
      '--order',
      '0,1,2,3',
      '--epochs',
      '1',
    );
    expect(given.json.config).toMatchObject({ epochs: 1, lr: 0.001 });
    // 1 epoch on 20 images per class: the joint head is below SimpleCIL, and stderr says so in a note
    expect(given.err).toMatch(/^note: the head is below the bar: .*SimpleCIL's/);
    expect(given.json.headBar).toMatchObject({ epochs: 1, lr: 0.001 });
  }, 60_000);

  it('a head with one hidden layer, several orderings on the fast path, and the config file’s features', async () => {
    const r = await cli('run', '--features', join(tmp, 'bb.npz'), '--classes', '0-3', '--tasks', '2', '--hidden', '32', '--orderings', 'all', '--epochs', '1');
    expect(r.code).toBe(0);
    expect(r.json.runs).toHaveLength(6);
    expect(r.json.runs[0].config.model).toEqual({ kind: 'head', hidden: [32] });
    const c = validateConfig({
      ...defaultConfig(),
      lab: 'ground-truth',
      dataset: { id: 'digits' },
      classes: [0, 1, 2, 3],
      taskSizes: [2, 2],
      features: { source: 'backbone', seed: 3 },
      model: { kind: 'head', hidden: [] },
      data: { trainPerClass: 20, testPerClass: 10 },
      training: { ...defaultConfig().training, epochs: 1, firstTaskEpochs: 1 },
    });
    expect(c.errors).toEqual([]);
    const file = join(tmp, 'config.json');
    writeFileSync(file, JSON.stringify(c.config));
    const fromConfig = await cli('run', '--config', file);
    expect(fromConfig.err).toMatch(/^(note: the head is below the bar: [^\n]+\n)?$/);
    expect(fromConfig.json.features.label).toBe('stand-in backbone trained on four, five, six, seven, eight and nine (seed 3)');
  }, 60_000);

  it('a pre-trained method (simplecil) on the backbone computed on the fly equals it on the .npz', async () => {
    const args = ['--classes', '0-5', '--tasks', '3', '--strategy', 'simplecil', '--orderings', 'all'];
    const fromFile = await cli('run', '--features', join(tmp, 'bb.npz'), ...args);
    const live = await cli('run', '--dataset', 'digits', '--features', 'backbone', '--backbone-seed', '3', '--train-per-class', '20', ...args);
    expect(live.code).toBe(0);
    expect(live.json.training.path).toMatch(/exact by class set/);
    expect(live.err).toMatch(/features: stand-in backbone trained on six, seven, eight and nine \(seed 3\)/);
    expect(live.json.runs.map((r: { final_accuracy: number }) => r.final_accuracy)).toEqual(
      fromFile.json.runs.map((r: { final_accuracy: number }) => r.final_accuracy),
    );
  }, 60_000);

  it('one line and exit code 2 for what cannot take features', async () => {
    const cases: [string[], RegExp][] = [
      [['stream', '--features', 'backbone'], /transforming the images' pixels/],
      [['curriculum', '--features', 'backbone'], /resizing their pixels/],
      [['ood', '--dataset', 'digits', '--tasks', '2', '--features', 'backbone'], /OOD sets are other datasets' images/],
      [['run', '--dataset', 'digits', '--features', 'backbone', '--tasks', '2', '--classes', '0-3', '--model', 'mlp'], /trains the head model/],
      [['run', '--dataset', 'digits', '--tasks', '2', '--classes', '0-3', '--model', 'head'], /give --features/],
      [['run', '--dataset', 'digits', '--features', 'backbone', '--tasks', '2', '--classes', '0-3', '--augment', 'on'], /cannot be augmented/],
      [['run', '--dataset', 'digits', '--features', 'backbone', '--tasks', '2', '--classes', '0-3', '--hidden', '8,8'], /one hidden layer/],
      [['run', '--dataset', 'fashion-mnist', '--features', join(tmp, 'bb.npz'), '--tasks', '2', '--classes', '0-3'], /names its classes differently/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  }, 60_000);
});

describe.skipIf(!haveDigits)('--similarity features', () => {
  it('is the cosine of the class prototypes of the features, for orders and similarity', async () => {
    const file = join(tmp, 'bb.npz');
    const sim = await cli('similarity', '--source', 'features', '--features', file);
    expect(sim.code).toBe(0);
    expect(sim.json.classes).toEqual(['zero', 'one', 'two', 'three', 'four', 'five']);
    expect(sim.json.source).toBe('cosine similarity of class prototypes of features from bb.npz');
    const set = readFeaturesNpz(readFileSync(file));
    const train = [...Array(set.n).keys()].filter((i) => set.split[i] === 0);
    const x = new Float32Array(train.length * set.d);
    train.forEach((r, k) => x.set(set.features.subarray(r * set.d, (r + 1) * set.d), k * set.d));
    const p = classMeanPrototypes(
      x,
      train.map((r) => set.labels[r]),
      set.d,
      10,
    );
    const want = cosineSimilarity(p.rows.slice(0, 6));
    (sim.json.matrix as number[][]).forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(want.data[i * 6 + j], 12)));
    const orders = await cli(
      'orders',
      '--dataset',
      'mnist',
      '--subset',
      '0-5',
      '--tasks',
      '3',
      '--similarity',
      'features',
      '--features',
      'backbone',
      '--backbone-seed',
      '3',
      '--train-per-class',
      '20',
      '--protocol',
      'edge',
    );
    expect(orders.code).toBe(0);
    expect(orders.json.similarity.source).toBe('cosine similarity of class prototypes of stand-in backbone trained on six, seven, eight and nine (seed 3)');
    expect(orders.json.sequences.map((s: { label: string }) => s.label)).toContain('EDGE hard');
    const none = await cli('orders', '--dataset', 'mnist', '--subset', '0-5', '--tasks', '3', '--similarity', 'features');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/needs the feature source/);
  }, 60_000);
});
