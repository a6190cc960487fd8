/**
 * A lab's own section of the experiment (the share link), for a page that edits it as a whole: the value when the
 * page mounted (a link opened from outside mounts the page afresh, src/ui/labs.ts `remountOnLink`) and a save that
 * writes every valid change back (an invalid one is refused by the store; the page's form shows its own messages).
 */
import { untrack } from 'svelte';
import type { ExperimentConfig } from '../../../core/config/schema';
import { shareLink } from '../../../services/share-link.svelte';

type SectionOf = 'time' | 'openWorld' | 'curriculum' | 'ownClasses';

export function labSection<K extends SectionOf>(key: K): { initial: ExperimentConfig[K]; save(value: NonNullable<ExperimentConfig[K]>): void } {
  const store = shareLink();
  return {
    initial: untrack(() => $state.snapshot(store.config[key]) as ExperimentConfig[K]),
    save(value) {
      store.update((c) => {
        c[key] = structuredClone(value);
      });
    },
  };
}
