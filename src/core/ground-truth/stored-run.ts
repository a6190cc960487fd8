/**
 * One finished run of the Ground-truth lab as the results store keeps it (src/services/results-store.ts, keyed by
 * (config hash, ordering key, strategy, seed); docs/architecture.md), trained here or imported
 * (../results-import/stored-runs.ts). One type for both, in core, so the statistics (./derive.ts), the import and
 * the store agree.
 */
export interface StoredRun {
  configHash: string;
  /** canonical ordering key over dataset class indices */
  orderingKey: string;
  /** the ordering over dataset class indices */
  tasks: number[][];
  strategy: string;
  seed: number;
  /** R (K×K), docs/science.md conventions */
  matrix: number[][];
  /** the untrained model's accuracy per task (FWT) */
  untrained: number[];
  /** test samples per task */
  testCounts: number[];
  /** sample-weighted final accuracy over all classes (docs/science.md §2) */
  finalAccuracy: number;
  /** sample-weighted average incremental accuracy over the classes seen at each step */
  aia: number;
  /** the backend that finished the run */
  backend: string;
  /** every backend the run used (more than one after a fallback) */
  backends?: string[];
  /** training wall time reported by the engine */
  seconds: number;
  /** true for results the user imported (not trained here) */
  imported?: boolean;
  /** Date.now() when stored */
  createdAt: number;
}
