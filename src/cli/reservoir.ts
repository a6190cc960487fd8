/**
 * `cil-lab reservoir --bucket-sizes 100,100,… --k N --alpha A|dynamic:C --trials T --seed S`: CLEAR's Alg. 1
 * alone, no training (docs/science.md §7; src/core/stream/reservoir.ts). One generator `default_rng(S)` runs the
 * T trials one after another (numpy's Generator draws the same numbers: scripts/make-stream-fixtures.py).
 *
 * Prints `{"shares": [mean share of the final buffer from each bucket], "sizes": [|B_t| after each bucket],
 * "counts": [mean count from each bucket in the final buffer], "shareStd": […], "composition": [[mean count from
 * bucket j after bucket t]], "bucketSizes", "k", "alpha", "trials", "seed"}`.
 *
 * Bad input is a `UsageError`: one line on stderr, exit code 2.
 */
import { createDefaultRng } from '../core/random/default-rng';
import { UINT32_MAX } from '../core/config/checker';
import { CONFIG_LIMITS } from '../core/config/limits';
import { checkReservoirSizes, formatAlpha, parseAlpha, ReservoirError, reservoirTrials } from '../core/stream/reservoir';
import { intArg, intListArg, str, UsageError } from './args';

type Values = Record<string, string | boolean | undefined>;

/** `--alpha A|dynamic:C` as a UsageError on a bad value. */
export function alphaArg(v: Values): ReturnType<typeof parseAlpha> | undefined {
  const a = str(v, 'alpha');
  if (a === undefined) return undefined;
  try {
    return parseAlpha(a);
  } catch (e) {
    throw new UsageError(`--alpha: ${(e as Error).message}`);
  }
}

export function reservoirCommand(v: Values): string {
  const sizes = intListArg(str(v, 'bucket-sizes'), 'bucket-sizes');
  if (!sizes) throw new UsageError('Give --bucket-sizes, the size of each bucket (e.g. 100,100,100).');
  const bad = sizes.findIndex((n) => n < 0);
  if (bad >= 0) throw new UsageError(`--bucket-sizes: bucket ${bad} has a negative size (${sizes[bad]}).`);
  const k = intArg(str(v, 'k'), 'k', 1, CONFIG_LIMITS.reservoirK);
  if (k === undefined) throw new UsageError('Give --k, the buffer size (e.g. 100).');
  const alpha = alphaArg(v);
  if (!alpha) throw new UsageError('Give --alpha: a number (0.5, 1, 2, 5; 1 = classic reservoir) or dynamic:C (0 < C ≤ 1; 1 = FIFO).');
  const trials = intArg(str(v, 'trials'), 'trials', 1, CONFIG_LIMITS.reservoirTrials) ?? 1000;
  const seed = intArg(str(v, 'seed'), 'seed', 0, UINT32_MAX) ?? 0;
  // the sizes together (buffers kept, work), bounded before anything is drawn
  try {
    checkReservoirSizes(sizes, k, trials);
  } catch (e) {
    if (e instanceof ReservoirError) throw new UsageError(`--bucket-sizes, --k, --trials: ${e.message}`);
    throw e;
  }
  let r;
  try {
    r = reservoirTrials(sizes, k, alpha, trials, createDefaultRng(seed));
  } catch (e) {
    if (e instanceof ReservoirError) throw new UsageError(e.message);
    throw e;
  }
  let total = 0;
  const bufferSizes = sizes.map((n) => Math.min(k, (total += n)));
  return JSON.stringify({
    shares: r.shares,
    sizes: bufferSizes,
    counts: r.counts,
    shareStd: r.shareStd,
    composition: r.composition,
    bucketSizes: sizes,
    k,
    alpha: formatAlpha(alpha),
    trials,
    seed,
  });
}
