/**
 * The Forgetting lab's state and effects (docs/science.md §3), outside its components so they are tested without a
 * browser (tests/unit/ui/forgetting-lab.test.ts). The page (./ForgettingPage.svelte) only composes
 * ./ForgettingControls.svelte and ./ForgettingResults.svelte, and everything they show is read from one
 * `ForgettingLab`, built in layers, each a file:
 * - ./lab-inputs.svelte.ts: the controls, the RS / EDGE orderings, the experiment they describe and how an edit made
 *   on this tab becomes the experiment (the lab entry's binding, src/core/labs/forgetting-binding.ts);
 * - ./lab-runs.svelte.ts: the store, the runner, the stored runs shown and what is shown of them;
 * - this file: an experiment opened from outside (a pasted link, Back) and the page's effects (`attach()`).
 */
import { untrack } from 'svelte';
import { forgettingLab } from '../../core/labs/forgetting';
import { ForgettingRunsState } from './lab-runs.svelte';

export type { ForgettingLabDeps, LabOrderings } from './lab-inputs.svelte';

export class ForgettingLab extends ForgettingRunsState {
  private seenRevision = untrack(() => this.link.revision);

  /** An experiment opened from outside (a pasted link, Back): a Forgetting one replaces the setup; another lab's frees the tab. */
  syncFromLink(): void {
    const revision = untrack(() => this.link.revision);
    if (revision === this.seenRevision) return;
    this.seenRevision = revision;
    const config = untrack(() => this.link.config);
    if (config.lab !== 'forgetting') {
      this.owns = false;
      return;
    }
    untrack(() => {
      this.applyInputs(forgettingLab.view(config, this.currentInputs()));
      this.owns = true;
      this.fromLink = true;
      if (this.store) this.showLinkedRuns();
      if (this.orderingKind === 'manual') this.nameLinkedOrdering();
    });
  }

  /** Wire the effects (the page calls this once, in its script). */
  attach(shown: () => boolean): void {
    this.shown = shown;
    $effect(() => {
      void this.link.revision;
      this.syncFromLink();
    });
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
  }
}
