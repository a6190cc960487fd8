/**
 * The Ground-truth lab's section (docs/science.md §2): how many orderings it trains.
 */
import { V1_FILL } from '../defaults';
import type { GroundTruthConfig } from '../types';
import type { ConfigSection } from './section';

export const groundTruthSection: ConfigSection<'groundTruth'> = {
  check(c, v): GroundTruthConfig {
    const g = c.object(v, 'groundTruth', ['budget', 'sampleSeed']);
    return {
      budget: c.int(g.budget, 'groundTruth.budget', 1, 1_000_000, V1_FILL.groundTruth.budget),
      sampleSeed: c.seed(g.sampleSeed, 'groundTruth.sampleSeed', V1_FILL.groundTruth.sampleSeed),
    };
  },
};
