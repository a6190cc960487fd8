/**
 * The trained head's settings clear the bar (docs/science.md §9 "The trained head's settings"): with HEAD_TRAINING,
 * what the app writes when an experiment switches to features, the same linear head trained jointly on every class
 * reaches at least SimpleCIL's accuracy on the same features — on the embedded stand-in backbone's features of the
 * Ground-truth lab's default (Fashion-MNIST 0–5, 300/100 images per class) and on the pre-trained methods' fixture —
 * while the MLP's fill-ins (3 epochs at 10⁻³) leave it below. SimpleCIL is checked against its plain definition here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HEAD_TRAINING } from '../../../../src/core/config/sections/features';
import { V1_FILL } from '../../../../src/core/config/defaults';
import type { FeatureSet } from '../../../../src/core/features/feature-set';
import { loadBuiltinDataset } from '../../../../src/data/registry';
import { readFeaturesNpz } from '../../../../src/data/features/npz';
import { selectBackend } from '../../../../src/engine/backend';
import { fromDecodedDataset } from '../../../../src/engine/dataset';
import { backboneFeatureSet } from '../../../../src/engine/features/extract';
import { headBar } from '../../../../src/engine/features/head-bar';

const haveFashion = existsSync(join('public', 'data', 'fashion-mnist', 'meta.json'));
const head = (t: { epochs: number; lr: number }) => ({ epochs: t.epochs, lr: t.lr, batchSize: 64, hidden: [], seed: 0 });

/** SimpleCIL by its definition: cosine to each class's mean training row, argmax. */
function simplecil(set: FeatureSet, classes: number[]): number {
  const d = set.d;
  const means = classes.map((c) => {
    const m = new Float64Array(d);
    let n = 0;
    for (let i = 0; i < set.n; i++)
      if (set.split[i] === 0 && set.labels[i] === c) {
        for (let k = 0; k < d; k++) m[k] += set.features[i * d + k];
        n++;
      }
    return m.map((x) => x / n);
  });
  let right = 0;
  let total = 0;
  for (let i = 0; i < set.n; i++) {
    if (set.split[i] !== 1 || !classes.includes(set.labels[i])) continue;
    const x = set.features.subarray(i * d, (i + 1) * d);
    const cos = means.map((m) => m.reduce((s, v, k) => s + v * x[k], 0) / Math.hypot(...m));
    if (classes[cos.indexOf(Math.max(...cos))] === set.labels[i]) right++;
    total++;
  }
  return right / total;
}

beforeAll(async () => {
  await selectBackend('wasm', { strict: true });
});

describe.skipIf(!haveFashion)('the head’s bar on the stand-in backbone’s features (Fashion-MNIST 0–5, 300/100 per class)', () => {
  it('with the head’s settings the joint head reaches SimpleCIL; with the MLP’s fill-ins it does not', async () => {
    const ds = fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', async (p) => new Uint8Array(await readFile(join('public', p)))));
    const classes = [0, 1, 2, 3, 4, 5];
    const { set } = await backboneFeatureSet(ds, { classes, trainPerClass: 300, testPerClass: 100 }, 0);
    const fair = await headBar(set, classes, head(HEAD_TRAINING));
    expect(fair.simplecil).toBeCloseTo(simplecil(set, classes), 12);
    expect(fair.simplecil).toBeCloseTo(0.7683, 3); // 461 of 600
    expect(fair.joint).toBeGreaterThanOrEqual(fair.simplecil);
    const starved = await headBar(set, classes, head(V1_FILL.training));
    expect(starved.joint).toBeLessThan(starved.simplecil);
  });
});

describe('the head’s bar on the pre-trained methods’ fixture (8 classes, 30/12 rows per class)', () => {
  it('with the head’s settings the joint head reaches SimpleCIL', async () => {
    const set = readFeaturesNpz(readFileSync(join('tests', 'fixtures', 'ptm-features.npz')));
    const classes = [0, 1, 2, 3, 4, 5, 6, 7];
    const bar = await headBar(set, classes, head(HEAD_TRAINING));
    expect(bar.simplecil).toBeCloseTo(simplecil(set, classes), 12);
    expect(bar.joint).toBeGreaterThanOrEqual(bar.simplecil);
    expect(bar).toMatchObject({ epochs: 20, lr: 0.01, batchSize: 64, hidden: [], seed: 0 });
  });
});
