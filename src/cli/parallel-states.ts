/**
 * The states of a whole distribution computed on two threads (`run --summary`, `analyze --features`; `--threads`):
 * where a state is expensive — RanPAC, one ridge factor of the seen classes' training rows each (docs/science.md §9)
 * — the states Ω visits (`statesOfOmega`) are dealt, heaviest first, to the lighter of two shares; a worker thread
 * (./states-worker.ts) sets the same method up on the same problem, deals the same way and computes the second share
 * while this thread sets up and computes the first. Both compute with the same code on the same numbers, so the
 * distribution is the one-thread one bit for bit; on a machine busy with other work the second thread may gain nothing.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { STATES_LIST_CLASSES, type StepAccuracies } from '../core/ptm/accuracy-distribution';
import type { PtmSetupInput } from '../core/ptm/ground-truth';
import { dealStates, type StatesWorkerData } from './states-deal';

/**
 * The worker thread's first lines: tsx's loader registered (the CLI runs its TypeScript through tsx, bin/cil-lab.mjs,
 * and a worker thread starts without the parent's loader), then ./states-worker.ts.
 */
const BOOT = `const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((m) => { m.register(); return import(workerData.entry); });`;

/** Whether computing the states ahead on two threads pays: RanPAC's states, every ordering, not too many classes. */
export function statesInParallel(setup: PtmSetupInput, threads: number, all: boolean): boolean {
  return threads > 1 && all && setup.strategy.id === 'ranpac' && setup.classes.length <= STATES_LIST_CLASSES;
}

/** Threads the summary uses by default: two where the machine has two cores or more. */
export function defaultThreads(): number {
  return Math.min(2, availableParallelism());
}

/** Where tsx's ESM API is (import.meta.resolve where the runtime has it, else beside tsx's package.json). */
function tsxApiUrl(): string {
  const resolve = (import.meta as ImportMeta & { resolve?: (specifier: string) => string }).resolve;
  if (resolve) return resolve('tsx/esm/api');
  return pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
}

/**
 * A worker thread started on `setup`; `table()` is this thread's (set up meanwhile), into which `finish` computes the
 * first share and loads the worker's.
 */
export function startStatesWorker(data: StatesWorkerData): { finish(table: StepAccuracies): Promise<void>; stop(): Promise<number> } {
  const boot = {
    tsx: tsxApiUrl(),
    entry: new URL('./states-worker.ts', import.meta.url).href,
  };
  const worker = new Worker(BOOT, { eval: true, workerData: { ...data, ...boot } });
  const done = new Promise<[string | number, number][]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The states' worker thread stopped (exit code ${code}) before it answered.`)));
  });
  done.catch(() => {}); // a failure is awaited in `finish`; after a failure here, nobody waits for it
  return {
    async finish(table) {
      for (const s of dealStates(table)[0]) table.stateAccuracy(s.seen, s.task);
      table.preload(await done);
    },
    stop: () => worker.terminate(),
  };
}
