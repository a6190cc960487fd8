/**
 * The services half of the lab kit (issue 12): the run session every lab's runner is built on (./run-session.ts),
 * the one training-worker pool every lab leases from (./train-pool.ts), and the function from the experiment config
 * to the engine's run config (src/engine/run-config.ts). A new lab's runner: see the top of ./run-session.ts.
 */
import { createTrainClient, type TrainClient } from '../train-client';
import { createWorkerPool, type WorkerPool } from './train-pool';

export * from './coordinator';
export * from './run-session';
export * from './train-pool';

let pool: WorkerPool<TrainClient> | null = null;

/** The app's one pool of training workers (train-client.ts), made on first use and kept for the app's life. */
export function sharedTrainPool(): WorkerPool<TrainClient> {
  pool ??= createWorkerPool<TrainClient>({ create: () => createTrainClient() });
  return pool;
}
