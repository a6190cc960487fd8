/**
 * `npx tsx scripts/head-bar.ts`: the trained head's bar (docs/science.md §9 "The trained head's settings"). On a feature
 * set, the same linear head trained **jointly** (all classes as one task, the engine's loop on the wasm backend, seed
 * 0) at several epochs and learning rates, beside SimpleCIL's accuracy on the same rows (cosine to the class means,
 * core/ptm): a head below SimpleCIL is under-trained, and its order effects are partly "which classes came last".
 *
 * Feature sets: the embedded stand-in backbone's features of Fashion-MNIST 0–5 at the Ground-truth lab's data subset
 * (300 training, 100 test images per class), and the pre-trained-methods fixture tests/fixtures/ptm-features.npz
 * (8 classes, 30/12 rows per class). Prints a table and one JSON line.
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FeatureSet } from '../src/core/features/feature-set';
import { PTM_DEFAULTS } from '../src/core/ptm/defaults';
import { directRunner } from '../src/core/ptm/direct-run';
import { ptmProblem } from '../src/core/ptm/problem';
import { loadBuiltinDataset } from '../src/data/registry';
import { readFeaturesNpz } from '../src/data/features/npz';
import { selectBackend } from '../src/engine/backend';
import { fromDecodedDataset } from '../src/engine/dataset';
import { featureDatasetOf } from '../src/engine/features/dataset';
import { backboneFeatureSet } from '../src/engine/features/extract';
import { trainRun } from '../src/engine/trainer';

const root = join(import.meta.dirname, '..');
await selectBackend('wasm', { strict: true });

const GRID = { epochs: [3, 10, 20, 30, 50], lr: [1e-3, 3e-3, 1e-2] };

async function bar(name: string, set: FeatureSet, classes: number[], perClass: { train: number; test: number }) {
  const simplecil = directRunner(
    ptmProblem(set, classes, { trainPerClass: perClass.train, testPerClass: perClass.test }),
    { id: 'simplecil', options: PTM_DEFAULTS.simplecil },
    0,
  )([classes.map((_, p) => p)]).matrix[0][0];
  const ds = featureDatasetOf(set, classes);
  const joint: { epochs: number; lr: number; accuracy: number }[] = [];
  for (const epochs of GRID.epochs)
    for (const lr of GRID.lr) {
      const r = await trainRun(ds, {
        tasks: [classes],
        seed: 0,
        strategy: 'finetune',
        model: { kind: 'head', hidden: [] },
        epochs,
        lr,
        batchSize: 64,
        trainPerClass: perClass.train,
        testPerClass: perClass.test,
      } as never);
      joint.push({ epochs, lr, accuracy: r.matrix[0][0] });
    }
  console.log(`${name}: SimpleCIL ${(100 * simplecil).toFixed(1)} %; the linear head trained jointly (batch 64, Adam):`);
  console.log(`  epochs ${GRID.lr.map((l) => `lr ${l}`.padStart(10)).join('')}`);
  for (const e of GRID.epochs)
    console.log(
      `  ${String(e).padStart(6)} ${GRID.lr.map((l) => `${(100 * joint.find((j) => j.epochs === e && j.lr === l)!.accuracy).toFixed(1)} %`.padStart(10)).join('')}`,
    );
  return { name, simplecil, joint };
}

const fm = fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', async (p) => new Uint8Array(await readFile(join(root, 'public', p)))));
const classes = [0, 1, 2, 3, 4, 5];
const { set: backbone } = await backboneFeatureSet(fm, { classes, trainPerClass: 300, testPerClass: 100 }, 0);
const fixture = readFeaturesNpz(readFileSync(join(root, 'tests', 'fixtures', 'ptm-features.npz')));
const out = [
  await bar('stand-in backbone, Fashion-MNIST 0–5, 300/100 per class', backbone, classes, { train: 300, test: 100 }),
  await bar('tests/fixtures/ptm-features.npz, 8 classes, 30/12 per class', fixture, [0, 1, 2, 3, 4, 5, 6, 7], { train: 30, test: 12 }),
];
console.log(JSON.stringify(out));
