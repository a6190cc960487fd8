/**
 * A lab bound to the app's one experiment (the share link) through its entry's `view` and `apply`
 * (src/core/labs/<lab>/index.ts), with a tab that keeps a setup of its own (its entry's `tab`: Time, Open world, Curriculum)
 * or without one (Your classes: its tab always shows the experiment's settings):
 * - where the page starts (`experimentStart`, pure): the experiment when it is the lab's or the lab has no tab of its
 *   own (with what the lab cannot train listed), else the tab's start (src/core/labs/own-section.ts);
 * - `save`: a change made on the lab's tab (while it is shown) is applied to the experiment, as a new history entry
 *   when the experiment was another lab's. Opening a link writes nothing until a setting changes.
 */
import { untrack } from 'svelte';
import type { ExperimentConfig, LabId } from '../../../core/config/schema';
import type { Unused } from '../../../core/config/lab-training';
import type { LabEntry, LabTab } from '../../../core/labs/lab';
import { shareLink } from '../../../services/share-link.svelte';

export interface ExperimentStart<S> {
  settings: S;
  unused: Unused[];
  /** the experiment is the lab's already (a change then replaces the history entry instead of adding one) */
  owns: boolean;
}

export function experimentStart<S, C = Partial<S>>(lab: LabEntry<LabId, S, C>, config: ExperimentConfig, openedLab: LabId | null): ExperimentStart<S> {
  const tab: LabTab<S> | undefined = lab.tab;
  if (!tab || tab.owns(config)) return { settings: lab.view(config), unused: tab?.unused(config) ?? [], owns: true };
  return { settings: tab.start(config, openedLab), unused: [], owns: false };
}

/**
 * The page's start and its save of what the lab's state hands its entry's `apply` (`C`; call while the page
 * initialises). `shown`: the lab's tab is shown.
 */
export function labExperiment<S, C = Partial<S>>(lab: LabEntry<LabId, S, C>, shown: () => boolean): ExperimentStart<S> & { save(change: C): boolean } {
  const link = shareLink();
  const first = untrack(() => experimentStart(lab, link.config, link.openedLab));
  let owns = first.owns;
  let last = JSON.stringify(first.settings);
  return {
    ...first,
    save(change) {
      const key = JSON.stringify(change);
      if (key === last || !untrack(shown)) return false;
      const r = link.update((c) => lab.apply(c, change), { history: owns ? 'replace' : 'push' });
      if (!r.ok) return false;
      last = key;
      owns = true;
      return true;
    },
  };
}
