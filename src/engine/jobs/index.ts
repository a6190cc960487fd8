/**
 * Every job kind the one training worker runs besides a single run and prefix-shared runs on its held dataset
 * (src/workers/train.worker.ts `run` / `runShared`): a lab whose training is not a plain run registers its kinds
 * here, each a function in the lab's engine folder.
 */
import { curriculumIsolatedJob, curriculumOrderJob, curriculumPreviewJob } from '../curriculum/job';
import { featureJob, featureKeyJob } from '../features/job';
import { ptmJob } from '../features/ptm-job';
import { distributionJob } from '../features/distribution-job';
import { oodJob } from '../ood/job';
import { ownEncodeJob, ownJointJob, ownOrderingsJob, ownOverviewJob, ownStepsJob, ownTrainJob } from '../own-classes/job';
import { reservoirSweepJob, streamJob, streamPreviewJob } from '../stream/job';
import type { Job } from './job';

export const JOBS = {
  ood: oodJob,
  'stream-preview': streamPreviewJob,
  stream: streamJob,
  'reservoir-sweep': reservoirSweepJob,
  'curriculum-preview': curriculumPreviewJob,
  'curriculum-isolated': curriculumIsolatedJob,
  'curriculum-order': curriculumOrderJob,
  'features-key': featureKeyJob,
  features: featureJob,
  ptm: ptmJob,
  'ptm-distribution': distributionJob,
  'own-encode': ownEncodeJob,
  'own-train': ownTrainJob,
  'own-orderings': ownOrderingsJob,
  'own-steps': ownStepsJob,
  'own-overview': ownOverviewJob,
  'own-joint': ownJointJob,
} as const;

export type JobKind = keyof typeof JOBS;
type Parts<J> = J extends Job<infer I, infer O, infer E> ? { input: I; output: O; event: E } : never;
export type JobInput<K extends JobKind> = Parts<(typeof JOBS)[K]>['input'];
export type JobOutput<K extends JobKind> = Parts<(typeof JOBS)[K]>['output'];
export type JobEvent<K extends JobKind> = Parts<(typeof JOBS)[K]>['event'];

export { jobContext, type Job, type JobContext } from './job';
