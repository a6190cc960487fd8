/**
 * A change written a part at a time, each part only where the config stays valid: a lab whose controls can be
 * invalid one at a time (an epoch count of 0, a half-typed seed list) still gets its other parts into the link, and
 * the link always opens. Each step returns the changed config (a fresh copy) or the very config it was given (no
 * change: not checked again).
 */
import type { ExperimentConfig } from './types';
import { validateConfig } from './validate';

export function foldValidSteps(config: ExperimentConfig, steps: readonly ((c: ExperimentConfig) => ExperimentConfig)[]): ExperimentConfig {
  let current = structuredClone(config);
  for (const step of steps) {
    const next = step(current);
    if (next === current) continue;
    const r = validateConfig(next);
    if (r.errors.length === 0) current = r.config;
  }
  return current;
}
