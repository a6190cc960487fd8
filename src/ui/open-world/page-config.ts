/**
 * The Open-world page and the app's one experiment (docs/science.md §5 "Settings and the share link"): where the page
 * starts, and its settings folded into the experiment, pure (tests/unit/ui/open-world-page-config.test.ts).
 *
 * - A link made on this tab (its `openWorld` section is the lab's own part and its lab is Open world) opens with its
 *   ID experiment read from the common sections (src/core/ood/experiment.ts), with what the lab cannot take listed.
 * - A link made before the lab moved onto the common sections carries full settings: they open as they are.
 * - A new experiment starts on `start` (the lab's measured start); a link without the section on the frozen defaults.
 * - Once the user changes a setting on this tab, the settings become the experiment (`foldOpenWorld`): the dataset,
 *   classes, strategy and training the Ground-truth tab then shows are these.
 */
import type { ExperimentConfig, LabId } from '../../core/config/schema';
import { OPEN_WORLD_DEFAULTS, type OpenWorldSettings } from '../../core/ood/config';
import { isOpenWorldOwn, openWorldFromExperiment, type Unused } from '../../core/ood/experiment';

export { foldOpenWorld } from '../../core/ood/experiment';

export interface OpenWorldStart {
  settings: OpenWorldSettings;
  /** what the link's experiment says that the lab cannot train, each with what it trains instead */
  unused: Unused[];
  /** the experiment is this tab's already (a change then replaces the link's history entry instead of adding one) */
  owns: boolean;
}

export function openWorldStart(config: ExperimentConfig, openedLab: LabId | null, start: OpenWorldSettings): OpenWorldStart {
  const ow = config.openWorld;
  if (isOpenWorldOwn(ow)) {
    if (config.lab === 'open-world') return { ...openWorldFromExperiment(config, ow), owns: true };
    // made on another tab: that lab's experiment is in the common sections; this tab's own choices stay
    const { from: _, ...own } = ow;
    return { settings: { ...structuredClone(start), ...structuredClone(own) }, unused: [], owns: false };
  }
  if (ow !== undefined) return { settings: structuredClone(ow), unused: [], owns: false };
  return { settings: structuredClone(openedLab === null ? start : OPEN_WORLD_DEFAULTS), unused: [], owns: false };
}
