/**
 * What the dataset picker says about a built-in class list's size (the list said "Emoji objects (249)" while
 * 198 classes load as images). A list of names can be larger than its image dataset: the emoji list names 249
 * concepts, and the prepared images keep the 198 that at least five artists drew (public/data/emoji/meta.json,
 * "dropped" says why each other one is missing). The Orderings lab works on names, so all 249 are usable there; the
 * labs that train, and image-prototype similarity, have the 198. tests/unit/ui/class-counts.test.ts checks these
 * numbers against the prepared meta.json files.
 */
export const IMAGE_CLASS_COUNTS: Readonly<Record<string, number>> = { emoji: 198 };

/** "249 names, 198 with images" for a list whose images are fewer than its names; else the count alone. */
export function classCountLabel(listId: string, names: number): string {
  const images = IMAGE_CLASS_COUNTS[listId];
  return images !== undefined && images < names ? `${names} names, ${images} with images` : String(names);
}
