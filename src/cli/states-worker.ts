/**
 * A worker thread of `run --summary` (./parallel-states.ts): sets the same method up on the same problem as the main
 * thread (the set-up is deterministic, so its states are the main thread's bit for bit), deals the states Ω visits as
 * the main thread does, computes its share and posts back [key, accuracy] pairs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { StepAccuracies } from '../core/ptm/accuracy-distribution';
import { preparePtm } from '../core/ptm/ground-truth';
import { dealStates, type StatesWorkerData } from './states-deal';

const data = workerData as StatesWorkerData;
const table = new StepAccuracies(preparePtm(data.setup), data.taskSizes);
const out: [string | number, number][] = dealStates(table)[1].map(({ seen, task }) => {
  const { key, accuracy } = table.stateAccuracy(seen, task);
  return [key, accuracy];
});
parentPort!.postMessage(out);
