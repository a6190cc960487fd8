/**
 * A run of the Forgetting lab while it trains (pure; tested in tests/unit/core/forgetting/live.test.ts): the training
 * worker delivers each finished task (its row of R and the softmax outputs recorded after it,
 * src/workers/train.worker.ts `TaskResult`), and these are gathered into the shape `cpcfFromRun`
 * (src/core/conformal/from-run.ts) reads, so CPCF_j, a_prev, a_new, the set sizes, coverage and Ω are drawn as
 * tasks finish. With tasks 1..t done, the report covers steps j = 2..t, exactly the first t − 1 steps of the
 * finished run's report (the same outputs and rows).
 *
 * Test counts per task come from the recorded test outputs (one row per test image), which the engine records for
 * every task after every step, so they are known from the first delivery on.
 */
import type { RecordedProbs } from '../conformal/from-run';

/** One delivered task (the worker's TaskResult, restated structurally: src/core imports nothing from above). */
export interface DeliveredTask<P extends RecordedProbs = RecordedProbs> {
  /** 0-based */
  task: number;
  /** K */
  tasks: number;
  row: number[];
  probs: P[];
}

export interface LiveRun<P extends RecordedProbs = RecordedProbs> {
  /** K, the number of tasks the run will have */
  tasks: number;
  /** rows 0..t of R for the tasks finished so far */
  matrix: number[][];
  probs: P[];
  /** test images per task (from the recorded test outputs; [] until known) */
  testCounts: number[];
}

export function emptyLiveRun<P extends RecordedProbs = RecordedProbs>(tasks: number): LiveRun<P> {
  return { tasks, matrix: [], probs: [], testCounts: [] };
}

/**
 * The live run with one more finished task. A task already gathered is ignored (the worker delivers each task
 * once; this keeps a stray repeat harmless); a gap (task t + 2 before t + 1) is an error.
 */
export function addDeliveredTask<P extends RecordedProbs>(run: LiveRun<P>, d: DeliveredTask<P>): LiveRun<P> {
  if (d.task < run.matrix.length) return run;
  if (d.task > run.matrix.length) throw new RangeError(`task ${d.task + 1} arrived before task ${run.matrix.length + 1}.`);
  let testCounts = run.testCounts;
  if (testCounts.length === 0) {
    const tests = d.probs.filter((p) => p.split === 'test');
    if (tests.length > 0) {
      testCounts = new Array<number>(d.tasks).fill(0);
      for (const p of tests) if (p.taskIndex < d.tasks) testCounts[p.taskIndex] = p.labels.length;
    }
  }
  return { tasks: d.tasks, matrix: [...run.matrix, d.row.slice()], probs: [...run.probs, ...d.probs], testCounts };
}
