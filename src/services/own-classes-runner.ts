/**
 * The Your-classes lab's runner: features of every recorded sample through the frozen image encoder (each sample
 * encoded once, kept by class and index), then the visitor's ordering trained with their strategy, or every ordering,
 * on a worker of the app's one training pool (the jobs of src/engine/own-classes/job.ts). Images are decoded here
 * (createImageBitmap) to RGB at SAMPLE_SIZE; nothing leaves the browser.
 */
import type { OwnClassesConfig } from '../core/config/sections/own-classes';
import { ownEdge, type OwnEdge } from '../core/own-classes/edge';
import { ownFeatureSet, type OwnClassRows } from '../core/own-classes/settings';
import { resizeToRgb } from '../data/parsers/image-folder-zip';
import type { OwnRun } from '../engine/own-classes/job';

export type { OwnRun };
import type { BackendName } from '../engine/index';
import type { LabWorkers } from './lab-kit';
import type { OwnSampleStore } from './own-classes-store';

/** Side of the square RGB image each sample is decoded to before the encoder's own preprocessing. */
export const SAMPLE_SIZE = 96;

export async function decodeToRgb(bytes: Uint8Array, size = SAMPLE_SIZE): Promise<Uint8Array> {
  const bitmap = await createImageBitmap(new Blob([bytes as BlobPart]));
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = canvas.getContext('2d');
    if (!g) throw new Error('This browser cannot decode images in a canvas.');
    g.drawImage(bitmap, 0, 0);
    const { data } = g.getImageData(0, 0, bitmap.width, bitmap.height);
    return resizeToRgb(data, bitmap.width, bitmap.height, [size, size]);
  } finally {
    bitmap.close();
  }
}

export interface OwnProgress {
  stage: 'encode' | 'train' | 'orderings';
  done: number;
  total: number;
}

/** `backend`: the experiment's training-backend preference, read at each lease. */
export function createOwnClassesRunner(workers: LabWorkers, samples: OwnSampleStore, backend: () => BackendName | 'auto' = () => 'auto') {
  const features = new Map<string, Float32Array>();
  let dim = 0;
  let encoderKey = '';
  const keyOf = (name: string, index: number) => `${name}\u0000${index}`;

  async function featureSet(cfg: OwnClassesConfig, upTo: number, onProgress: (p: OwnProgress) => void) {
    const key = JSON.stringify(cfg.encoder);
    if (key !== encoderKey) {
      features.clear();
      encoderKey = key;
    }
    const per = cfg.trainPerClass + cfg.testPerClass;
    const names = cfg.classes.slice(0, upTo);
    const lease = await workers.lease(backend());
    try {
      const classes: OwnClassRows[] = [];
      for (const name of names) {
        const list = (await samples.samples(name)).slice(0, per);
        if (list.length < cfg.trainPerClass + 1)
          throw new Error(
            `“${name}” has ${list.length} samples; it needs at least ${cfg.trainPerClass + 1} (${cfg.trainPerClass} to train, 1 or more to test).`,
          );
        const missing = list.filter((s) => !features.has(keyOf(name, s.index)));
        if (missing.length > 0) {
          const side = SAMPLE_SIZE * SAMPLE_SIZE * 3;
          const images = new Uint8Array(missing.length * side);
          for (let i = 0; i < missing.length; i++) images.set(await decodeToRgb(missing[i].bytes), i * side);
          const out = await lease.main.job(
            'own-encode',
            { encoder: cfg.encoder, images, shape: [SAMPLE_SIZE, SAMPLE_SIZE, 3], count: missing.length, wasmPaths: `${import.meta.env.BASE_URL}ort/` },
            (e) => onProgress({ stage: 'encode', done: e.done, total: missing.length }),
          );
          dim = out.dim;
          missing.forEach((s, i) => features.set(keyOf(name, s.index), out.features.slice(i * dim, (i + 1) * dim)));
        }
        const rows = new Float32Array(list.length * dim);
        list.forEach((s, i) => rows.set(features.get(keyOf(name, s.index))!, i * dim));
        classes.push({ name, rows, train: cfg.trainPerClass });
      }
      return { set: ownFeatureSet(classes, dim), lease };
    } catch (e) {
      lease.release();
      throw e;
    }
  }

  return {
    /** R of the teaching order over the first `upTo` classes. */
    async train(cfg: OwnClassesConfig, upTo: number, onProgress: (p: OwnProgress) => void): Promise<OwnRun> {
      const { set, lease } = await featureSet(cfg, upTo, onProgress);
      try {
        onProgress({ stage: 'train', done: 0, total: 1 });
        return await lease.main.job('own-train', { set, strategy: cfg.strategy, seed: cfg.seed });
      } finally {
        lease.release();
      }
    },
    /** Every ordering of the recorded classes (the first is the teaching order). */
    async orderings(cfg: OwnClassesConfig, onProgress: (p: OwnProgress) => void): Promise<{ runs: OwnRun[]; edge: OwnEdge }> {
      const { set, lease } = await featureSet(cfg, cfg.classes.length, onProgress);
      try {
        const runs = await lease.main.job('own-orderings', { set, strategy: cfg.strategy, seed: cfg.seed }, (e) =>
          onProgress({ stage: 'orderings', done: e.done, total: e.total }),
        );
        return { runs, edge: ownEdge(set) };
      } finally {
        lease.release();
      }
    },
    /** Drop the features of a class (its samples changed) or of all. */
    forgetFeatures(name: string | null): void {
      if (name === null) features.clear();
      else for (const k of [...features.keys()]) if (k.startsWith(`${name}\u0000`)) features.delete(k);
    },
  };
}

export type OwnClassesRunner = ReturnType<typeof createOwnClassesRunner>;
