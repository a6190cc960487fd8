/**
 * A lab whose ID data or training are the experiment's common sections and whose own section keeps only the rest
 * (`{ from: 'experiment', … }`: Open world, Curriculum), bound to the app's one experiment (the share link):
 * - where the page starts (`experimentStart`, pure): a link made on the lab's tab reads the common sections, with
 *   what the lab cannot train listed; a link made before carries the lab's full settings and opens to them; a new
 *   experiment starts on the lab's start; a link without the section on the frozen fill-in;
 * - `save`: a change made on the lab's tab (while it is shown) folds the settings into the experiment, as a new
 *   history entry when the experiment was another lab's. Opening a link writes nothing until a setting changes.
 */
import { untrack } from 'svelte';
import type { ExperimentConfig, LabId } from '../../../core/config/schema';
import type { Unused } from '../../../core/config/lab-training';
import { shareLink } from '../../../services/share-link.svelte';

export interface LabExperimentSpec<S, Own> {
  lab: LabId;
  key: 'openWorld' | 'curriculum' | 'time';
  /** the lab's measured start (a new experiment) and its frozen fill-in (a link without the section) */
  start: S;
  fill: S;
  isOwn(x: unknown): x is Own;
  fromExperiment(config: ExperimentConfig, own: Own): { settings: S; unused: Unused[] };
  /** the own part's fields as settings (a link made on another tab: those on the start) */
  ownFields(own: Own): Partial<S>;
  fold(config: ExperimentConfig, s: S): ExperimentConfig;
}

export interface ExperimentStart<S> {
  settings: S;
  unused: Unused[];
  /** the experiment is the lab's already (a change then replaces the history entry instead of adding one) */
  owns: boolean;
}

export function experimentStart<S, Own>(spec: LabExperimentSpec<S, Own>, config: ExperimentConfig, openedLab: LabId | null): ExperimentStart<S> {
  const own = config[spec.key];
  if (spec.isOwn(own)) {
    if (config.lab === spec.lab) return { ...spec.fromExperiment(config, own), owns: true };
    // made on another tab: that lab's experiment is in the common sections; this lab's own choices stay
    return { settings: { ...structuredClone(spec.start), ...structuredClone(spec.ownFields(own)) }, unused: [], owns: false };
  }
  if (own !== undefined) return { settings: structuredClone(own as S), unused: [], owns: false };
  return { settings: structuredClone(openedLab === null ? spec.start : spec.fill), unused: [], owns: false };
}

/** The page's start and its save (call while the page initialises). `shown`: the lab's tab is shown. */
export function labExperiment<S, Own>(spec: LabExperimentSpec<S, Own>, shown: () => boolean): ExperimentStart<S> & { save(s: S): boolean } {
  const link = shareLink();
  const first = untrack(() => experimentStart(spec, link.config, link.openedLab));
  let owns = first.owns;
  let last = JSON.stringify(first.settings);
  return {
    ...first,
    save(s) {
      const key = JSON.stringify(s);
      if (key === last || !untrack(shown)) return false;
      const r = link.update((c) => spec.fold(c, s), { history: owns ? 'replace' : 'push' });
      if (!r.ok) return false;
      last = key;
      owns = true;
      return true;
    },
  };
}
