/**
 * What the two threads of a whole distribution's states share (./parallel-states.ts starts the worker thread,
 * ./states-worker.ts is it): the worker's input and the one way both deal the states into two shares.
 */
import { statesOfOmega, type StepAccuracies } from '../core/ptm/accuracy-distribution';
import type { PtmSetupInput } from '../core/ptm/ground-truth';

/** What the worker thread is given: the method's set-up (features, classes, method, seed, rows) and the task sizes. */
export interface StatesWorkerData {
  setup: PtmSetupInput;
  taskSizes: number[];
}

type State = ReturnType<typeof statesOfOmega>[number];

/** The states Ω visits in two shares of about equal cost, heaviest first to the lighter share (the same in every thread). */
export function dealStates(table: StepAccuracies): [State[], State[]] {
  const states = statesOfOmega(table).sort((a, b) => b.cost - a.cost || (a.seen !== b.seen ? a.seen - b.seen : a.task - b.task));
  const shares: [State[], State[]] = [[], []];
  const cost = [0, 0];
  for (const s of states) {
    const k = cost[0] <= cost[1] ? 0 : 1;
    shares[k].push(s);
    cost[k] += s.cost;
  }
  return shares;
}
