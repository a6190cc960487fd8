/**
 * The Forgetting lab's state and effects (docs/science.md §3), outside its components so they are tested without a
 * browser (tests/unit/ui/forgetting-lab.test.ts). The lab kit mounts it (./index.ts): ./ForgettingControls.svelte and
 * ./ForgettingResults.svelte read everything they show from one `ForgettingLab`, built in layers, each a file:
 * - ./lab-inputs.svelte.ts: the controls, the RS / EDGE orderings, the experiment they describe and how an edit made
 *   on this tab becomes the experiment (the lab entry's binding, src/core/labs/forgetting/binding.ts);
 * - ./lab-runs.svelte.ts: the store, the runner, the stored runs shown and what is shown of them;
 * - this file: what the kit calls (Run, Pause, Resume, Cancel, teaching mode's Step, `dispose`) and the page's
 *   effects (`attach()`).
 *
 * An experiment opened from outside (a pasted link, Back) mounts the lab afresh (the kit's remount on a link), so
 * the state reads the link once, as it starts: a Forgetting link's setup and its stored runs, or else the tab's own
 * setup. A run in progress on this tab then stops (its finished runs are stored; a start of the same setup trains only
 * the runs it lacks) rather than going on under another experiment.
 */
import { untrack } from 'svelte';
import { ForgettingRunsState } from './lab-runs.svelte';

export type { ForgettingLabDeps, LabOrderings } from './lab-inputs.svelte';

export class ForgettingLab extends ForgettingRunsState {
  /** Run ▶ (and teaching mode's Play): the one run (or seeds) the controls describe. */
  run(): Promise<void> {
    return this.runSingle();
  }
  // Pause / Resume / Cancel go to the runner once there is one
  pause = (): void => this.runner?.pause();
  resume = (): void => this.runner?.resume();
  cancel = (): void => this.runner?.cancel();
  /** Teaching mode's Step: one more run, then pause (from idle: the first run of a start). */
  step(): void {
    if (this.active) this.runner?.step();
    else void this.stepFromIdle();
  }
  dispose(): void {
    this.destroy();
  }

  /** Wire the effects (the kit calls this once, while the page initialises) and open the store. */
  attach(shown: () => boolean): void {
    this.shown = shown;
    $effect(() => {
      if (!shown()) return;
      void this.currentInputs();
      void this.orderingInput.tasks;
      untrack(() => this.pushToLink());
    });
    $effect(() => {
      if (shown())
        this.link.reportBackend('Forgetting lab training', this.runnerState.backendInfo ? `${this.runnerState.backendInfo.name} (Web Worker)` : null);
    });
    // while the tab shows its own setup (not the experiment), "What exactly ran" shows that setup: what Run would train
    $effect(() => {
      const own = shown() && !this.owns ? this.experiment().config : null;
      untrack(() => this.link.showTabSetup('forgetting', own));
    });
    $effect(() => {
      const k = this.orderingKind;
      if (k !== 'rs' && k !== 'edge-hard' && k !== 'edge-easy') return;
      void this.dataset.classListId;
      this.ensureProtocolOrderings().then(
        () => (this.orderingError = ''),
        (e: unknown) => (this.orderingError = e instanceof Error ? e.message : String(e)),
      );
    });
    $effect(() => {
      if (!this.active) return;
      const timer = setInterval(() => this.tick(), 500);
      return () => clearInterval(timer);
    });
    void this.mount();
  }
}
