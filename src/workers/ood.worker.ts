/// <reference lib="webworker" />
/**
 * The Open-world lab's worker: a thin comlink facade over src/engine/ood. It fetches the built-in datasets the
 * settings need (kept for the next run), runs `runOpenWorld` one run at a time, sends each finished step back through
 * a callback proxy with the trainer's checkpoint after it (the lab draws and stores it at once; a stored checkpoint
 * comes back as `resumeFrom` after a reload), and exposes pause / resume / cancel of the run in flight.
 */
import * as Comlink from 'comlink';
import type { OpenWorldSettings } from '../core/ood/config';
import { loadBuiltinDataset } from '../data/registry';
import {
  fromDecodedDataset,
  RunControl,
  selectBackend,
  setWasmBase,
  type BackendInfo,
  type BackendName,
  type ImageDataset,
  type ProgressEvent,
  type RunCheckpoint,
} from '../engine/index';
import { datasetsNeeded, openWorldInput } from '../engine/ood/from-settings';
import { runOpenWorld, type OpenWorldResult, type OpenWorldStep } from '../engine/ood/run';
import { controlMethods } from './run-control';

setWasmBase(`${import.meta.env.BASE_URL}tfjs/`);

async function fetchBytes(path: string): Promise<Uint8Array> {
  const res = await fetch(import.meta.env.BASE_URL + path);
  if (!res.ok) throw new Error(`cannot read ${path}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

const cache = new Map<string, ImageDataset>();
let control: RunControl | null = null;

/** a finished step, with the trainer's checkpoint after its task (what the lab stores to resume after it) */
export type OodStepFn = (step: OpenWorldStep, checkpoint: RunCheckpoint) => void;
export type OodActivityFn = (a: { phase: 'train'; progress: ProgressEvent } | { phase: 'detector'; step: number; detector: string }) => void;
/** What the lab keeps of a finished run (the training result without its recorded softmax outputs). */
export type OodRunResult = Omit<OpenWorldResult, 'train'> & { train: Omit<OpenWorldResult['train'], 'probs'> };

const release = (cb: unknown): void => (cb as Partial<Record<typeof Comlink.releaseProxy, () => void>> | undefined)?.[Comlink.releaseProxy]?.();

const api = {
  async selectBackend(preferred: BackendName | 'auto' = 'auto'): Promise<BackendInfo> {
    return selectBackend(preferred);
  },
  /** Run `settings`; with `resumeFrom` (a stored checkpoint and the steps before it) continue after its last step. */
  async run(
    settings: OpenWorldSettings,
    onStep: OodStepFn,
    onActivity?: OodActivityFn,
    resumeFrom?: { checkpoint: RunCheckpoint; steps: OpenWorldStep[] },
  ): Promise<OodRunResult> {
    control?.cancel();
    const mine = new RunControl();
    control = mine;
    try {
      for (const id of datasetsNeeded(settings)) {
        if (!cache.has(id)) cache.set(id, fromDecodedDataset(await loadBuiltinDataset(id, fetchBytes)));
      }
      const { dataset, config } = openWorldInput(settings, (id) => cache.get(id) as ImageDataset);
      let lastProgress = 0;
      const r = await runOpenWorld(dataset, config, {
        control: mine,
        onCheckpoint: (c, s) => onStep(s, c),
        ...(resumeFrom ? { resumeFrom } : {}),
        onProgress: (p) => {
          const now = performance.now();
          if (now - lastProgress > 250) {
            lastProgress = now;
            onActivity?.({ phase: 'train', progress: p });
          }
        },
        onDetector: (e) => onActivity?.({ phase: 'detector', step: e.step, detector: e.detector }),
      });
      const { probs: _probs, ...train } = r.train;
      return { ...r, train };
    } finally {
      if (control === mine) control = null;
      release(onStep);
      release(onActivity);
    }
  },
  /** Pause / resume / cancel the run in flight (no effect without one). */
  ...controlMethods(() => control),
};

export type OodWorkerApi = typeof api;
Comlink.expose(api);
