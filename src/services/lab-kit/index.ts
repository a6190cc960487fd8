/**
 * The services half of the lab kit: the run session every lab's runner is built on (./run-session.ts), the one
 * pool of training workers every lab leases from (./train-pool.ts), the coordinator of tabs (./coordinator.ts), and
 * `labWorkers(lab)`, what a lab's runner is given: a worker of the app's pool for a while, and the coordinator.
 */
import type { LabId } from '../../core/labs';
import type { BackendName } from '../../engine/index';
import { createTrainClient, type TrainClient } from '../train-client';
import { webLocksCoordinator } from './coordinator';
import type { SessionCoordinator } from './run-session';
import { createWorkerPool, type Lease, type WorkerPool } from './train-pool';

export * from './coordinator';
export * from './run-session';
export * from './train-pool';

let pool: WorkerPool<TrainClient> | null = null;

/** The app's one pool of training workers (train-client.ts), made on first use and kept for the app's life. */
export function sharedTrainPool(): WorkerPool<TrainClient> {
  pool ??= createWorkerPool<TrainClient>({ create: () => createTrainClient() });
  return pool;
}

export interface LabWorkers {
  /** a worker of the app's pool on `backend`, until `release()` (its jobs load their own datasets) */
  lease(backend: BackendName | 'auto'): Promise<Lease<TrainClient>>;
  /** one tab trains a setup, another on the same setup follows what it stores (null: no Web Locks here) */
  coordinator: SessionCoordinator | null;
}

/** What every lab's runner is given. */
export function labWorkers(lab: LabId): LabWorkers {
  return { lease: (backend) => sharedTrainPool().lease({ backend }), coordinator: webLocksCoordinator(lab) };
}
