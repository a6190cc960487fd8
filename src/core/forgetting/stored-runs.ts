/**
 * Which stored runs of the Forgetting lab show a setup (pure; tested in tests/unit/core/forgetting/stored-runs.test.ts):
 * a link opened on the tab shows the runs this browser stored for its setup (IndexedDB,
 * src/services/forgetting-store.ts), or says they are not stored yet.
 */
import { jobKey, presetDataset } from './from-config';
import { PRESETS, type ForgettingJob, type PresetId } from './setup';

/** A stored run, as far as matching needs it. */
export interface StoredRunRef {
  id: string;
  group: string;
  preset: string | null;
  job: ForgettingJob;
}

/**
 * The newest stored runs of a setup: for a preset, its newest group on the same dataset, images per class, seed and
 * learning rate (any lr for the learning-rate preset); for one run, the newest run with the same job key (a run of
 * its own first, else a preset's run that is the same run). Runs are given oldest first. null when none is stored.
 */
export function findStoredRuns(
  runs: readonly StoredRunRef[],
  want: { preset: PresetId | null; presetLr: number; job: ForgettingJob | null },
): { group: string; runId: string | null } | null {
  if (want.preset) {
    const job = want.job;
    for (let i = runs.length - 1; i >= 0; i--) {
      const r = runs[i];
      if (r.preset !== want.preset) continue;
      const first = runs.find((x) => x.group === r.group)!;
      const j = first.job;
      if (job && (j.dataset !== presetDataset(want.preset, job.dataset) || j.seed !== job.seed)) continue;
      if (job && !PRESETS.find((x) => x.id === want.preset)?.regime && (j.trainPerClass !== job.trainPerClass || j.testPerClass !== job.testPerClass)) continue;
      if (want.preset !== 'lr' && j.lr !== want.presetLr) continue;
      return { group: r.group, runId: null };
    }
    return null;
  }
  if (!want.job) return null;
  const key = jobKey(want.job);
  const match = (r: StoredRunRef) => jobKey(r.job) === key;
  for (const own of [true, false]) {
    for (let i = runs.length - 1; i >= 0; i--) {
      const r = runs[i];
      if ((r.preset === null) === own && match(r)) return { group: r.group, runId: r.id };
    }
  }
  return null;
}
