/**
 * `npm run probe:backbone`: how good the embedded backbone's features are on the classes it never saw — the default
 * experiment's Fashion-MNIST 0–5, the stand-in backbone trained on 6–9 (src/engine/features/backbone.ts, seed 0) — next to
 * the pixels the MLP trains on, and to the same network left untrained (seed 0's initial weights: what pre-training
 * adds). The probes are src/engine/features/probe.ts's, what `cil-lab features --source backbone --probe` prints: a
 * linear probe (the engine's linear head, 30 epochs of Adam) and the nearest class mean (cosine), all six classes at
 * once, on the first `--train-per-class` (default 1000) training images of each class and every test image.
 * Prints a table and one JSON line.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadBuiltinDataset } from '../src/data/registry';
import { selectBackend } from '../src/engine/backend';
import { fromDecodedDataset } from '../src/engine/dataset';
import { backboneFeatureSet } from '../src/engine/features/extract';
import { probeBackbone } from '../src/engine/features/probe';

const arg = (name: string, fill: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fill;
};
const trainPerClass = arg('train-per-class', 1000);
const rows = { classes: [0, 1, 2, 3, 4, 5], trainPerClass, testPerClass: null };

const root = join(import.meta.dirname, '..');
const ds = fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', async (p) => new Uint8Array(await readFile(join(root, 'public', p)))));
await selectBackend('wasm', { strict: true });
const { set, backbone } = await backboneFeatureSet(ds, rows, 0);
const probe = await probeBackbone(ds, rows, backbone, set);

console.log(
  `probe:backbone — Fashion-MNIST 0–5, ${probe.n.train} training / ${probe.n.test} test images; linear probe ${probe.training.epochs} epochs (engine, wasm), nearest class mean (cosine):`,
);
const names: Record<'backbone' | 'untrained' | 'pixels', string> = {
  backbone: `stand-in backbone trained on ${backbone.classNames.join(', ')} (seed 0)`,
  untrained: 'the same network untrained (seed 0)',
  pixels: 'pixels / 255',
};
for (const k of ['backbone', 'untrained', 'pixels'] as const)
  console.log(
    `  ${names[k].padEnd(66)} d ${String(probe[k].d).padStart(3)}  linear probe ${(100 * probe[k].linearProbe).toFixed(2)} %  nearest mean ${(100 * probe[k].nearestMean).toFixed(2)} %`,
  );
console.log(JSON.stringify({ trainPerClass, epochs: probe.training.epochs, backboneTrainAccuracy: backbone.trainAccuracy, probe }));
