/**
 * The trained head's bar (docs/science.md §9 "The trained head's settings"): the same head, with the experiment's
 * settings, trained **jointly** on every class of the experiment as one task, beside SimpleCIL's accuracy on the same
 * rows. A head that cannot reach SimpleCIL even jointly is under-trained: its order effects are then partly "which
 * classes came last" rather than forgetting, and the verdict says so (core/verdict/order-sensitivity.ts).
 *
 * Used by the pre-trained methods' job (./ptm-job.ts, in the lab) and by `cil-lab run --features` with a trained
 * strategy: the same function, the same numbers.
 */
import type { FeatureSet } from '../../core/features/feature-set';
import { PTM_DEFAULTS } from '../../core/ptm/defaults';
import { directRunner } from '../../core/ptm/direct-run';
import { ptmProblem } from '../../core/ptm/problem';
import { trainRun } from '../trainer';
import { featureDatasetOf } from './dataset';

/** The head's settings the bar trains with (the experiment's). */
export interface HeadBarTraining {
  epochs: number;
  lr: number;
  batchSize: number;
  /** the head's hidden widths ([] linear, or one width) */
  hidden: number[];
  seed: number;
}

export interface HeadBar extends HeadBarTraining {
  /** the head trained jointly on every class: accuracy on the test rows (fraction) */
  joint: number;
  /** SimpleCIL (cosine to the class means) on the same rows, all classes seen */
  simplecil: number;
}

/** The bar of `classes` (label ids of `set`, whose rows are already the experiment's subset). */
export async function headBar(set: FeatureSet, classes: readonly number[], t: HeadBarTraining): Promise<HeadBar> {
  const r = await trainRun(featureDatasetOf(set, classes), {
    tasks: [classes.slice()],
    seed: t.seed,
    strategy: 'finetune',
    model: { kind: 'head', hidden: t.hidden.slice() },
    epochs: t.epochs,
    lr: t.lr,
    batchSize: t.batchSize,
  });
  const all = classes.map((_, p) => p);
  const simplecil = directRunner(ptmProblem(set, classes), { id: 'simplecil', options: { ...PTM_DEFAULTS.simplecil } }, 0)([all]).matrix[0][0];
  return { ...t, hidden: t.hidden.slice(), joint: r.matrix[0][0], simplecil };
}
