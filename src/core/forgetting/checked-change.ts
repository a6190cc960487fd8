/**
 * What of the Forgetting tab's change the experiment takes (pure; tested in
 * tests/unit/core/labs/forgetting-binding.test.ts). The lab entry's `apply` (src/core/labs/forgetting-binding.ts) is
 * unchecked, as every lab's is (the registry sits above the config's checkers); here the change is checked against
 * the config, over the registry:
 * - `checkedChange`: part by part in `apply`'s order, a part that would make the config invalid (a half-typed epoch
 *   count, a calibration ratio that holds out no image) is null, so the config keeps that part as it was and the link
 *   always opens;
 * - `forgettingExperimentOf`: the experiment a run trains, every part in at once, or why there is none: a run is
 *   never trained on a setting other than the one shown.
 */
import { formatIssues, validateConfig, type ExperimentConfig } from '../config/schema';
import { forgettingLab } from '../labs/forgetting';
import { CHANGE_PARTS, type ChangePart, type ForgettingChange } from '../labs/forgetting-binding';

/** The change with only `part` in (the head, which two parts read, kept). */
function onlyPart(change: ForgettingChange, part: ChangePart): ForgettingChange {
  const none = Object.fromEntries(CHANGE_PARTS.map((p) => [p, null])) as unknown as ForgettingChange;
  return { ...none, head: change.head, [part]: change[part] };
}

/** `change` with each part that would make `config` invalid (applied in order, each on the ones before) null. */
export function checkedChange(config: ExperimentConfig, change: ForgettingChange): ForgettingChange {
  const out: ForgettingChange = { ...change };
  let at = config;
  for (const part of CHANGE_PARTS) {
    if (change[part] === null) continue;
    const r = validateConfig(forgettingLab.apply(at, onlyPart(change, part)));
    if (r.errors.length === 0) at = r.config;
    else (out as unknown as Record<string, unknown>)[part] = null;
  }
  return out;
}

/** The experiment a run of the change trains (every part in at once, the ordering known), or why there is none. */
export function forgettingExperimentOf(
  config: ExperimentConfig,
  change: ForgettingChange,
): { config: ExperimentConfig; error: null } | { config: null; error: string } {
  if (!change.setup?.tasks) return { config: null, error: 'The ordering is not ready.' };
  const r = validateConfig(forgettingLab.apply(config, change));
  return r.errors.length === 0 ? { config: r.config, error: null } : { config: null, error: formatIssues(r.errors) };
}
