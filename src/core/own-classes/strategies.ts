/**
 * The Your-classes lab's strategies (docs/science.md §10): two that train a linear head on each class (fine-tune,
 * replay) and four closed-form ones (§9: SimpleCIL, NCM, FeCAM, RanPAC). Its own module, free of the config's
 * imports, so the lab's science, its section and the engine all read one list.
 */

/** The head strategies (a linear head trained on each class) first, then the closed-form ones. */
export const OWN_STRATEGIES = ['finetune', 'replay', 'simplecil', 'ncm', 'fecam', 'ranpac'] as const;
export type OwnStrategy = (typeof OWN_STRATEGIES)[number];

/** The strategies that train a head (and stay at OWN_LIMITS.headClasses classes). */
export const OWN_HEAD_STRATEGIES: readonly OwnStrategy[] = ['finetune', 'replay'];

export const isHeadStrategy = (s: OwnStrategy): boolean => OWN_HEAD_STRATEGIES.includes(s);
