/**
 * The Open-world lab (docs/science.md §5): out-of-distribution detection after every class-incremental step. Its ID
 * data, strategy and training are the experiment's common sections, the class order's seed, detectors, OOD sets and
 * fine-tuned heads its own section (src/core/ood/experiment.ts).
 */
import { openWorldSection } from './section';
import { OPEN_WORLD_DEFAULTS, OPEN_WORLD_PRESETS, OPEN_WORLD_SETTINGS, type OpenWorldSettings } from './settings';
import { foldOpenWorld, isOpenWorldOwn, openWorldFromExperiment, type OpenWorldOwn } from '../../ood/experiment';
import { defineLab } from '../lab';
import { ownSectionBinding } from '../own-section';
import { PAPERS } from '../papers';

declare module '../../config/types' {
  interface LabSections {
    'open-world': {
      /**
       * Its own part, the ID experiment being the common sections; or, in links made before, its full settings
       * (src/core/labs/open-world/section.ts). Absent = its defaults. Read with this entry's view.
       */
      openWorld?: OpenWorldOwn | OpenWorldSettings;
    };
  }
}

declare module '../lab' {
  interface LabSettingsTables {
    'open-world': [typeof OPEN_WORLD_SETTINGS];
  }
}

export const openWorldLab = defineLab({
  id: 'open-world',
  name: 'Open world',
  labName: 'Open-world',
  question: 'As classes arrive, can the model still tell unknown images from known ones?',
  paper: {
    paper: PAPERS.opencil,
    uses: 'OOD detection after every CIL step, the BER detector and the per-step metrics',
    formulas: [
      'MSP = max softmax;  Energy = logsumexp(z)  (higher = more in-distribution)',
      'AUROC = P(score(ID) > score(OOD)), ties ½',
      'FPR@95 = share of OOD with score ≥ τ, τ keeping 95 % of ID',
      'step t: ID = tasks 0..t; each OOD set contributes ⌊|OOD|·(t+1)/T⌋ examples (Eq. 6)',
    ],
    sections: 'docs/science.md §5',
  },
  trains: false,
  sections: { openWorld: openWorldSection },
  commands: ['ood', 'ood-metrics', 'ood-scores'],
  configCommand: 'ood',
  settings: [OPEN_WORLD_SETTINGS],
  ...ownSectionBinding<OpenWorldSettings, OpenWorldOwn>({
    lab: 'open-world',
    key: 'openWorld',
    // a new experiment starts on the near-far preset (the near set is the harder one there, 3 seeds)
    start: OPEN_WORLD_PRESETS['near-far'],
    fill: OPEN_WORLD_DEFAULTS,
    isOwn: isOpenWorldOwn,
    fromExperiment: openWorldFromExperiment,
    ownFields: ({ from: _, ...own }) => own,
    fold: foldOpenWorld,
  }),
});
