/**
 * A lab's own section of the experiment (the share link), for a page that edits it as a whole: the value when the
 * page mounted (a link opened from outside mounts the page afresh, src/ui/labs.ts `remountOnLink`) and a save that
 * writes every valid change back (an invalid one is refused by the store; the page's form shows its own messages).
 *
 * `start` is where a new experiment starts (the lab's measured starting point, e.g. TIME_LAB_START): used only when
 * the section is absent and the page was opened without a link. A link without the section keeps meaning the
 * section's frozen fill-in (what it opened as when it was made); once saved, the starting point is in the link.
 */
import { untrack } from 'svelte';
import type { ExperimentConfig } from '../../../core/config/schema';
import { shareLink } from '../../../services/share-link.svelte';

type SectionOf = 'ownClasses';

export function labSection<K extends SectionOf>(
  key: K,
  start?: NonNullable<ExperimentConfig[K]>,
): { initial: ExperimentConfig[K]; save(value: NonNullable<ExperimentConfig[K]>): void } {
  const store = shareLink();
  const own = untrack(() => $state.snapshot(store.config[key]) as ExperimentConfig[K]);
  const fresh = own === undefined && untrack(() => store.openedLab) === null;
  return {
    initial: fresh && start !== undefined ? (structuredClone(start) as ExperimentConfig[K]) : own,
    save(value) {
      store.update((c) => {
        c[key] = structuredClone(value);
      });
    },
  };
}
