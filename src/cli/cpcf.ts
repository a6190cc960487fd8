/**
 * `cil-lab cpcf`: one training run (the flags of `cil-lab run`) that records softmax outputs on each task's
 * calibration and test data after every task, then the CPCF series (docs/science.md §3): CPCF_j, a_prev,j, a_new,j,
 * coverage against 1−α, Kemker's Ω, dCor and Pearson between CPCF and a_prev.
 * Infinite thresholds (calibration set too small for α) print as null with `qInfinite` (JSON has no Infinity).
 */
import { cpcfFromRun } from '../core/conformal/from-run';
import type { ScoreName } from '../core/conformal/scores';
import { runCommand, RunUsageError } from './run';
import { UsageError } from './args';

type Values = Record<string, string | boolean | undefined>;

function fraction(v: Values, key: string, fallback: number, lo: number, hi: number): number {
  const s = v[key];
  if (s === undefined) return fallback;
  const x = Number(s);
  if (typeof s !== 'string' || s.trim() === '' || !Number.isFinite(x) || x <= lo || x >= hi) {
    throw new UsageError(`--${key} must be a number strictly between ${lo} and ${hi}; got "${String(s)}".`);
  }
  return x;
}

const finite = (xs: number[]) => xs.map((x) => (Number.isFinite(x) ? x : null));

export async function cpcfCommand(v: Values, options: { root: string; onNote?: (note: string) => void }): Promise<string> {
  const alpha = fraction(v, 'alpha', 0.1, 0, 1);
  const calibrationRatio = fraction(v, 'calibration-ratio', 0.1, 0, 1);
  const score = ((v.score as string | undefined) ?? 'aps') as ScoreName;
  if (!['aps', 'lac', 'raps'].includes(score)) throw new UsageError(`Unknown --score "${score}": use aps, lac or raps.`);
  try {
    return await runCommand(v, options, {
      probs: { calibrationRatio },
      report: (result) => {
        const r = cpcfFromRun(result, { alpha, score });
        return {
          alpha,
          calibrationRatio,
          score,
          cpcf: r.cpcf,
          aPrev: r.aPrev,
          aNew: r.aNew,
          coverage: r.coverage,
          q: finite(r.q),
          qInfinite: r.q.map((q) => !Number.isFinite(q)),
          omega: r.omega,
          dcor: r.dcor,
          pearson: Number.isFinite(r.pearson) ? r.pearson : null,
          pearsonP: Number.isFinite(r.pearsonP) ? r.pearsonP : null,
          calibrationCounts: result.calibrationCounts,
        };
      },
    });
  } catch (e) {
    if (e instanceof RunUsageError) throw new UsageError(e.message);
    throw e;
  }
}
