/**
 * The Time lab's jobs (docs/science.md §7): the stream its settings cut from Fashion-MNIST (kept while they stay),
 * its bucket samples, one protocol's run with a checkpoint after every bucket, and Alg. 1's α sweep.
 */
import { buildStream, type StreamBuckets } from '../../core/stream/buckets';
import type { TimeLabConfig } from '../../core/labs/time/settings';
import type { StreamProtocol } from '../../core/stream/metrics';
import { ALPHA_SWEEP, reservoirTrials, type AlphaSpec } from '../../core/stream/reservoir';
import { createDefaultRng } from '../../core/random/default-rng';
import type { Job, JobContext } from '../jobs/job';
import type { ImageDataset } from '../types';
import { streamRunConfigOf, streamPreview, streamSpecOf, type StreamPreview } from './lab';
import { trainStream, type StreamCheckpoint, type StreamProgress, type StreamRunResult, type StreamStepEnd } from './train';

export interface SweepEntry {
  alpha: AlphaSpec;
  /** composition[t][j]: mean samples of bucket j in the buffer after bucket t */
  composition: number[][];
}

/** The stream of the settings over Fashion-MNIST's training split, as a dataset of its buckets. */
async function streamFor(c: TimeLabConfig, ctx: JobContext): Promise<{ stream: StreamBuckets; dataset: ImageDataset }> {
  const spec = streamSpecOf(c);
  return ctx.derived('stream', JSON.stringify(spec), async () => {
    const source = await ctx.builtin('fashion-mnist');
    const stream = buildStream(spec, { images: source.train.images, labels: source.train.labels, shape: source.shape, numClasses: source.classNames.length });
    const dataset: ImageDataset = {
      shape: source.shape,
      classNames: source.classNames,
      train: { images: stream.images, labels: stream.labels },
      test: { images: new Uint8Array(0), labels: new Uint8Array(0) },
    };
    return { stream, dataset };
  });
}

export const streamPreviewJob: Job<TimeLabConfig, StreamPreview> = async (c, ctx) => {
  const { stream, dataset } = await streamFor(c, ctx);
  return streamPreview(stream, dataset.classNames);
};

export interface StreamJobInput {
  config: TimeLabConfig;
  protocol: StreamProtocol;
  resumeFrom: StreamCheckpoint | null;
}

export type StreamJobEvent =
  { kind: 'step'; end: StreamStepEnd } | { kind: 'progress'; progress: StreamProgress } | { kind: 'checkpoint'; checkpoint: StreamCheckpoint };

export const streamJob: Job<StreamJobInput, StreamRunResult, StreamJobEvent> = async ({ config, protocol, resumeFrom }, ctx, emit) => {
  const { stream, dataset } = await streamFor(config, ctx);
  return trainStream(dataset, streamRunConfigOf(config, protocol, stream.sizes), {
    control: ctx.control,
    onStepEnd: (end) => emit({ kind: 'step', end }),
    onProgress: (progress) => emit({ kind: 'progress', progress }),
    onCheckpoint: (checkpoint) => emit({ kind: 'checkpoint', checkpoint }),
    ...(resumeFrom ? { resumeFrom } : {}),
  });
};

export interface SweepInput {
  sizes: number[];
  k: number;
  trials: number;
  seed: number;
}

/** Alg. 1 alone for every α of the paper's Table 2, on these bucket sizes (no training). */
export const reservoirSweepJob: Job<SweepInput, SweepEntry[]> = async ({ sizes, k, trials, seed }) =>
  ALPHA_SWEEP.map((alpha) => ({ alpha, composition: reservoirTrials(sizes, k, alpha, trials, createDefaultRng(seed)).composition }));
