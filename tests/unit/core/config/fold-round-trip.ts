/** A lab's settings folded into an experiment, checked as a link would be, and read back: the tests that say a lab
 * on the common sections opens to the same settings share this. */
import { expect } from 'vitest';
import { defaultConfig, validateConfig, type ExperimentConfig } from '../../../../src/core/config/schema';

export function foldRoundTrip<S>(
  fold: (base: ExperimentConfig, s: S) => ExperimentConfig,
  read: (c: ExperimentConfig) => S,
): (s: S, base?: ExperimentConfig) => { config: ExperimentConfig; back: S } {
  return (s, base = defaultConfig()) => {
    const r = validateConfig(fold(base, s));
    expect(r.errors).toEqual([]);
    return { config: r.config, back: read(r.config) };
  };
}
