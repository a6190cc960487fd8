/**
 * Checkpoints between tasks (what the backend fallback resumes from, and what a paused app could persist):
 * the network's weights and the strategy's state as plain typed arrays, the rows of R so far, the untrained
 * accuracies and any recorded softmax outputs. Restoring one and training the remaining tasks gives the same R
 * as the uninterrupted run on the same backend, because every task re-seeds all its randomness from the prefix
 * rule and the optimiser is created fresh at every task (PyCIL and Avalanche do the same), so nothing else
 * carries over between tasks.
 */
import type { ProbsRecord, RunCheckpoint, StateValue, StrategyState } from './types';

export function cloneStateValue(v: StateValue): StateValue {
  if (Array.isArray(v)) return v.map(cloneStateValue);
  if (v instanceof Float32Array || v instanceof Int32Array) return v.slice();
  return v;
}

/** A deep copy: a checkpoint shares no buffer with the live run (its arrays may be transferred or mutated). */
export function cloneState(s: StrategyState): StrategyState {
  const out: StrategyState = {};
  for (const [k, v] of Object.entries(s)) out[k] = cloneStateValue(v);
  return out;
}

function cloneProbs(p: ProbsRecord): ProbsRecord {
  return { ...p, probs: p.probs.slice(), labels: p.labels.slice() };
}

export function cloneCheckpoint(c: RunCheckpoint): RunCheckpoint {
  return {
    ...c,
    weights: c.weights.map((w) => w.slice()),
    strategy: cloneState(c.strategy),
    matrix: c.matrix.map((r) => r.slice()),
    untrained: c.untrained.slice(),
    probs: c.probs.map(cloneProbs),
    backends: c.backends.slice(),
  };
}

/** Why a checkpoint cannot resume a run, or null if it can. */
export function checkpointMismatch(c: RunCheckpoint, configKey: string, taskCount: number): string | null {
  if (c.version !== 1) return `checkpoint version ${String(c.version)} is not 1`;
  if (c.configKey !== configKey) return 'the checkpoint belongs to a run with a different config';
  if (!(Number.isInteger(c.nextTask) && c.nextTask >= 0 && c.nextTask <= taskCount)) return `the checkpoint's next task ${c.nextTask} is out of range`;
  if (c.matrix.length !== c.nextTask) return `the checkpoint has ${c.matrix.length} rows of R for ${c.nextTask} finished tasks`;
  return null;
}
