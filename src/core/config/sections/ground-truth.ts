/**
 * The Ground-truth lab's section (docs/science.md §2): how many orderings it trains.
 */
import { countOrderings } from '../../orderings/count';
import { V1_FILL } from '../defaults';
import { CONFIG_LIMITS, grouped } from '../limits';
import type { GroundTruthConfig } from '../types';
import type { ConfigSection } from './section';

const plural = (n: number, one: string): string => `${grouped(n)} ${one}${n === 1 ? '' : 's'}`;

export const groundTruthSection: ConfigSection<'groundTruth'> = {
  check(c, v): GroundTruthConfig {
    const g = c.object(v, 'groundTruth', ['budget', 'sampleSeed']);
    return {
      budget: c.int(g.budget, 'groundTruth.budget', 1, CONFIG_LIMITS.groundTruthBudget, V1_FILL.groundTruth.budget),
      sampleSeed: c.seed(g.sampleSeed, 'groundTruth.sampleSeed', V1_FILL.groundTruth.sampleSeed),
    };
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
