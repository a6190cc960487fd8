/// <reference lib="webworker" />
/**
 * The Curriculum lab's worker: a thin comlink facade over src/engine/curriculum (docs/science.md §8). It fetches
 * each built-in source dataset once, joins the curriculum's datasets at 28×28 grey (kept until the datasets or the
 * subset change), and trains one isolated model or one order at a time, with pause / resume / cancel.
 */
import * as Comlink from 'comlink';
import { checkCurriculum, CURRICULUM_SHAPE, type CurriculumSource } from '../core/curriculum/catalogue';
import { loadBuiltinDataset } from '../data/registry';
import { joinCurriculum } from '../engine/curriculum/data';
import { trainIsolated, trainOrder, type OrderRun } from '../engine/curriculum/run';
import {
  fromDecodedDataset,
  RunControl,
  selectBackend,
  setWasmBase,
  type BackendInfo,
  type BackendName,
  type ImageDataset,
  type ProgressEvent,
} from '../engine/index';
import type { RunSettings } from '../engine/run-config';
import { controlMethods } from './run-control';

setWasmBase(`${import.meta.env.BASE_URL}tfjs/`);

export interface CurriculumData {
  datasets: string[];
  trainPerClass: number;
  testPerClass: number;
}

/** What the page shows of the data: one test image of each class of each dataset, at the common shape. */
export interface CurriculumPreview {
  shape: [number, number, number];
  /** rows[p][c]: the bytes of dataset p's first test image of class c */
  rows: Uint8Array[][];
  trainCounts: number[];
  testCounts: number[];
}

export type { OrderRun };

const sources = new Map<CurriculumSource, Promise<ImageDataset>>();
let held: { key: string; dataset: ImageDataset } | null = null;
let control: RunControl | null = null;

async function fetchBytes(path: string): Promise<Uint8Array> {
  const res = await fetch(import.meta.env.BASE_URL + path);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function joined(d: CurriculumData): Promise<ImageDataset> {
  const key = JSON.stringify(d);
  if (held?.key === key) return held.dataset;
  const list = checkCurriculum(d.datasets);
  const loaded: Partial<Record<CurriculumSource, ImageDataset>> = {};
  for (const src of new Set(list.map((x) => x.source))) {
    if (!sources.has(src)) sources.set(src, loadBuiltinDataset(src, fetchBytes).then(fromDecodedDataset));
    try {
      loaded[src] = await sources.get(src);
    } catch (e) {
      sources.delete(src); // try again next time
      throw e;
    }
  }
  held = { key, dataset: joinCurriculum(list, loaded, { trainPerClass: d.trainPerClass, testPerClass: d.testPerClass }) };
  return held.dataset;
}

const api = {
  async selectBackend(preferred: BackendName | 'auto'): Promise<BackendInfo> {
    return selectBackend(preferred);
  },
  async prepare(d: CurriculumData): Promise<CurriculumPreview> {
    const ds = await joined(d);
    const size = CURRICULUM_SHAPE[0] * CURRICULUM_SHAPE[1] * CURRICULUM_SHAPE[2];
    const K = d.datasets.length;
    const rows: Uint8Array[][] = Array.from({ length: K }, () => []);
    const trainCounts = Array<number>(K).fill(0);
    const testCounts = Array<number>(K).fill(0);
    ds.train.labels.forEach((y) => trainCounts[Math.floor(y / 10)]++);
    ds.test.labels.forEach((y, i) => {
      const p = Math.floor(y / 10);
      testCounts[p]++;
      if (!rows[p][y % 10]) rows[p][y % 10] = ds.test.images.slice(i * size, (i + 1) * size);
    });
    return { shape: [...CURRICULUM_SHAPE] as [number, number, number], rows, trainCounts, testCounts };
  },
  /** a_j of one dataset (position p) trained alone. */
  async isolated(d: CurriculumData, settings: RunSettings, p: number, seed: number, onProgress: (e: ProgressEvent) => void): Promise<number> {
    const ds = await joined(d);
    control = new RunControl();
    try {
      const all = await trainIsolatedOne(ds, settings, p, seed, onProgress, control);
      return all;
    } finally {
      control = null;
    }
  },
  async order(
    d: CurriculumData,
    settings: RunSettings,
    job: { order: number[]; strategy: string; seed: number },
    onProgress: (e: ProgressEvent) => void,
  ): Promise<OrderRun> {
    const ds = await joined(d);
    control = new RunControl();
    try {
      return await trainOrder(ds, settings, job, { onProgress, control });
    } finally {
      control = null;
    }
  },
  /** Pause / resume / cancel the run in flight (no effect without one). */
  ...controlMethods(() => control),
};

/** One dataset alone: trainIsolated over a one-dataset view of the joined set (same labels, same model). */
async function trainIsolatedOne(
  ds: ImageDataset,
  settings: RunSettings,
  p: number,
  seed: number,
  onProgress: (e: ProgressEvent) => void,
  c: RunControl,
): Promise<number> {
  const [a] = await trainIsolated(ds, settings, seed, (q) => (q === p ? { onProgress, control: c } : {}), [p]);
  return a;
}

export type CurriculumWorkerApi = typeof api;
Comlink.expose(api);
