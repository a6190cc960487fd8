/**
 * Image prototypes as the Orderings page's similarity source (docs/science.md §6; the computation is
 * core/similarity/prototypes.ts, run in the data worker): which built-in image dataset a class list has, and how
 * the source is described. Pure (tests/unit/ui/orderings-prototypes.test.ts).
 */
import { BUILTIN_DATASETS, type BuiltinDataset } from '../../data/registry';

/** The built-in dataset with images named by class list `classListId` (fashion-mnist, mnist → digits, emoji), or null. */
export function imageDatasetFor(classListId: string): BuiltinDataset | null {
  return BUILTIN_DATASETS.find((d) => d.classListId === classListId) ?? null;
}

/** The names of the datasets that have images, for messages ("Fashion-MNIST, Digits (8×8) or Emoji objects"). */
export function imageDatasetNames(): string {
  const names = BUILTIN_DATASETS.map((d) => d.name);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names.join('');
}

/**
 * The end of the notice "Using WordNet until the image prototypes are ready…" while Image prototypes is chosen:
 * the class list has no images here, the prototypes failed, or they are still being read.
 */
export function prototypesFallbackNote(listName: string | null, hasImages: boolean, failed: boolean): string {
  if (!hasImages) return `: ${listName ?? 'custom class names'} has no images here (${imageDatasetNames()} do).`;
  return failed ? ': they could not be computed — see the message under Similarity → Image prototypes.' : ' (reading the training images…).';
}

/** Thin-space thousands. */
function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
}

/** The label of the source ("Fashion-MNIST image prototypes (…)"); the similarity is the cosine of these rows. */
export function prototypesLabel(datasetName: string, counts: readonly number[]): string {
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  const per = lo === hi ? `${count(lo)}` : `${count(lo)}–${count(hi)}`;
  return `${datasetName} image prototypes (mean of the L2-normalised training images, ${per} per class)`;
}

/** The cache key of prototypes: the dataset and the classes, in the order asked. */
export function prototypesKey(datasetId: string, classIndices: readonly number[]): string {
  return `${datasetId}:${classIndices.join(',')}`;
}
