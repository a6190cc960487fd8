/**
 * The Curriculum lab's jobs (docs/science.md §8): the curriculum's datasets joined at 28×28 grey (kept while the
 * datasets and the subset stay), one test image of each class for the page, one dataset trained alone (a_j), and one
 * order trained, read as CIL and TIL from the same model.
 */
import { checkCurriculum, CURRICULUM_SHAPE, type CurriculumSource } from '../../core/curriculum/catalogue';
import type { Job, JobContext } from '../jobs/job';
import type { RunSettings } from '../run-config';
import type { ImageDataset, ProgressEvent } from '../types';
import { joinCurriculum } from './data';
import { trainIsolated, trainOrder, type OrderRun } from './run';

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

function joined(d: CurriculumData, ctx: JobContext): Promise<ImageDataset> {
  return ctx.derived('curriculum', JSON.stringify(d), async () => {
    const list = checkCurriculum(d.datasets);
    const loaded: Partial<Record<CurriculumSource, ImageDataset>> = {};
    for (const src of new Set(list.map((x) => x.source))) loaded[src] = await ctx.builtin(src);
    return joinCurriculum(list, loaded, { trainPerClass: d.trainPerClass, testPerClass: d.testPerClass });
  });
}

export const curriculumPreviewJob: Job<CurriculumData, CurriculumPreview> = async (d, ctx) => {
  const ds = await joined(d, ctx);
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
};

export interface IsolatedInput {
  data: CurriculumData;
  settings: RunSettings;
  /** the dataset's position in the curriculum */
  position: number;
  seed: number;
}

/** a_j of one dataset trained alone (a one-dataset view of the joined set: same labels, same model). */
export const curriculumIsolatedJob: Job<IsolatedInput, number, ProgressEvent> = async ({ data, settings, position, seed }, ctx, emit) => {
  const ds = await joined(data, ctx);
  const [a] = await trainIsolated(ds, settings, seed, (q) => (q === position ? { onProgress: emit, control: ctx.control } : {}), [position]);
  return a;
};

export interface OrderInput {
  data: CurriculumData;
  settings: RunSettings;
  order: number[];
  strategy: string;
  seed: number;
}

export const curriculumOrderJob: Job<OrderInput, OrderRun, ProgressEvent> = async ({ data, settings, order, strategy, seed }, ctx, emit) => {
  const ds = await joined(data, ctx);
  return trainOrder(ds, settings, { order, strategy, seed }, { onProgress: emit, control: ctx.control });
};
