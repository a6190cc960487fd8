/**
 * The Your-classes lab's client half (docs/science.md §10, docs/design.md "Your classes"): the visitor records their
 * own objects one class at a time, the model updates after each, a strategy switch shows forgetting or none, then
 * every ordering of their classes. The lab kit mounts it (src/ui/common/lab/lab-client.ts); state in
 * ./own-classes-state.svelte.ts (the lab ./own-classes-lab.svelte.ts once this browser's samples are open), the panel
 * ./OwnClassesControls.svelte, the canvas ./OwnClassesResults.svelte; training and the store in
 * src/services/own-classes-runner.ts and own-classes-store.ts.
 *
 * It has no Run row: recording (or importing) a class trains it, and Every ordering and the joint head are buttons on
 * its canvas, where its runs show their progress with Pause, Resume and Cancel; so no Play bar either, and its panel
 * is what a lesson asks the visitor to use (not folded away). Its settings are its section, whole, saved whenever
 * the lab commits a change, also one that ends after the visitor left the tab (an import, the names' embedding).
 */
import { ownClassesLab } from '../../core/labs/own-classes';
import { kitLab } from '../common/lab/lab-client';
import { openOwnClasses, OwnClassesState } from './own-classes-state.svelte';
import OwnClassesControls from './OwnClassesControls.svelte';
import OwnClassesResults from './OwnClassesResults.svelte';

export default kitLab({
  entry: ownClassesLab,
  title: 'Your classes: does it forget?',
  testid: 'oc',
  runner: () => openOwnClasses(),
  state: (parts, settings) => new OwnClassesState(parts, settings),
  Controls: OwnClassesControls,
  Results: OwnClassesResults,
  saved: (s) => s.committed,
  saveHidden: true,
  lessonFold: false,
  lines: () => ({ backend: '', error: '', notice: null }),
  exports: () => [],
  // the latest update of each strategy
  observation: (s) => s.lab?.observation ?? null,
});
