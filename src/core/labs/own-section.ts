/**
 * The binding of a lab whose training is the experiment's common sections and whose own section keeps only the rest
 * (`{ from: 'experiment', … }`: Time, Open world, Curriculum): its `view`, `apply` and `tab` (./lab.ts) from the
 * section's reader (`fromExperiment`) and writer (`fold`).
 * - `view`: a config made on the lab's tab reads the common sections and the own part; a link made before the lab
 *   moved onto the common sections carries the full settings and reads them; a config without the section, the
 *   frozen fill-in;
 * - `apply`: the settings, the change over the view, folded into the config as the lab's experiment;
 * - `tab.start` (the experiment is another lab's): the lab's start with its own choices of an earlier visit, a link
 *   made before its full settings, a new experiment the lab's start, a link without the section the fill-in.
 */
import type { Unused } from '../config/lab-training';
import type { ExperimentConfig, LabId } from '../config/types';
import type { LabEntry } from './lab';

export interface OwnSectionSpec<S, Own> {
  lab: LabId;
  key: 'openWorld' | 'curriculum' | 'time';
  /** the lab's measured start (a new experiment) and its frozen fill-in (a link without the section) */
  start: S;
  fill: S;
  isOwn(x: unknown): x is Own;
  /** the settings of a config whose section is `own`, and what of the common sections the lab cannot train */
  fromExperiment(config: ExperimentConfig, own: Own): { settings: S; unused: Unused[] };
  /** the own part's fields as settings (a link made on another tab: those on the start) */
  ownFields(own: Own): Partial<S>;
  /** `config` with the settings `s` as the lab's experiment */
  fold(config: ExperimentConfig, s: S): ExperimentConfig;
}

export function ownSectionBinding<S, Own>(spec: OwnSectionSpec<S, Own>): Required<Pick<LabEntry<LabId, S>, 'view' | 'apply' | 'tab'>> {
  const view = (config: ExperimentConfig): S => {
    const own = config[spec.key];
    if (spec.isOwn(own)) return spec.fromExperiment(config, own).settings;
    return structuredClone((own ?? spec.fill) as S);
  };
  return {
    view,
    apply: (config, change) => spec.fold(config, { ...view(config), ...structuredClone(change) }),
    tab: {
      owns: (config) => config.lab === spec.lab && spec.isOwn(config[spec.key]),
      start(config, opened) {
        const own = config[spec.key];
        if (spec.isOwn(own)) return { ...structuredClone(spec.start), ...structuredClone(spec.ownFields(own)) };
        if (own !== undefined) return structuredClone(own as S);
        return structuredClone(opened === null ? spec.start : spec.fill);
      },
      unused(config) {
        const own = config[spec.key];
        return spec.isOwn(own) ? spec.fromExperiment(config, own).unused : [];
      },
    },
  };
}
