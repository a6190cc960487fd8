/**
 * The Ground-truth lab's section (docs/science.md §2): how many orderings it trains. Its fields are checked by the
 * lab's settings table (src/core/labs/ground-truth/settings.ts); the rule between them and the other sections is here.
 */
import { GROUND_TRUTH_SETTINGS, type GroundTruthSettings } from './settings';
import { countOrderings } from '../../orderings/count';
import { CONFIG_LIMITS, grouped } from '../../config/limits';
import { checkTableSection } from '../../config/section-table';
import type { ConfigSection } from '../../config/sections/section';

const plural = (n: number, one: string): string => `${grouped(n)} ${one}${n === 1 ? '' : 's'}`;

export const groundTruthSection: ConfigSection<'groundTruth'> = {
  check(c, v): GroundTruthSettings {
    return checkTableSection(c, GROUND_TRUTH_SETTINGS, v, 'groundTruth');
  },
  /** Every (ordering, strategy, seed) is one training run, kept as a run record in the tab. */
  crossCheck(c, { lab, groundTruth, taskSizes, strategies, seeds }, checked) {
    if (lab !== 'ground-truth') return;
    const omega = checked.clean('classes') && checked.clean('taskSizes') ? countOrderings(taskSizes) : undefined;
    const orderings = omega !== undefined && omega < BigInt(groundTruth.budget) ? Number(omega) : groundTruth.budget;
    const runs = orderings * strategies.length * seeds.length;
    if (runs <= CONFIG_LIMITS.groundTruthRuns) return;
    c.error(
      'groundTruth.budget',
      `A ground truth trains at most ${grouped(CONFIG_LIMITS.groundTruthRuns)} runs (orderings × strategies × seeds), each kept as a run record in the tab; ` +
        `${plural(orderings, 'ordering')} × ${plural(strategies.length, 'strategy').replace(/ys$/, 'ies')} × ${plural(seeds.length, 'seed')} asks for ${grouped(runs)}: lower the budget, or use fewer strategies or seeds.`,
    );
  },
};
