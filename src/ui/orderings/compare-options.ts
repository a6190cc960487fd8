/** The similarity sources the source comparison offers (CompareSources.svelte, SourcePicker.svelte). */
import type { SimilaritySpec } from '../../services/orderings-client';

/** A similarity source the user can pick: its spec when it is available for the current classes, else why not. */
export interface CompareOption {
  id: string;
  label: string;
  spec: SimilaritySpec | null;
  unavailable?: string;
}
