/**
 * The Open-world page and the app's one experiment (docs/science.md §5 "Settings and the share link"): the lab's ID
 * data, strategy and training are the common sections (src/core/ood/experiment.ts), bound by the lab kit's
 * `labExperiment` (ui/common/lab/lab-experiment.svelte.ts).
 */
import { OPEN_WORLD_DEFAULTS, OPEN_WORLD_PRESETS, type OpenWorldSettings } from '../../core/ood/config';
import { foldOpenWorld, isOpenWorldOwn, openWorldFromExperiment, type OpenWorldOwn } from '../../core/ood/experiment';
import type { LabExperimentSpec } from '../common/lab/lab-experiment.svelte';

export const OPEN_WORLD_EXPERIMENT: LabExperimentSpec<OpenWorldSettings, OpenWorldOwn> = {
  lab: 'open-world',
  key: 'openWorld',
  // a new experiment starts on the near-far preset (the near set is the harder one there, 3 seeds)
  start: OPEN_WORLD_PRESETS['near-far'],
  fill: OPEN_WORLD_DEFAULTS,
  isOwn: isOpenWorldOwn,
  fromExperiment: openWorldFromExperiment,
  ownFields: ({ from: _, ...own }) => own,
  fold: foldOpenWorld,
};
