/**
 * Every lab's id, in the order of the app's tabs: the lab a link opens is one of these. Each id has its entry in
 * ./index.ts (the compiler checks both lists agree); the config imports only this file, so it does not depend on
 * the entries, which depend on the config's sections.
 */
export const LAB_IDS = ['orderings', 'ground-truth', 'forgetting', 'time', 'open-world', 'curriculum', 'own-classes'] as const;

export type LabId = (typeof LAB_IDS)[number];
