/**
 * `Maybe<T>`: a derived statistic, or null with a reason a person can read. Every statistic of the Ground-truth
 * lab (derive.ts, normality.ts) that cannot be computed yet takes this shape instead of throwing.
 */
/** A statistic, or null with the reason it is not there (yet). */
export type Maybe<T> = { value: T; reason: null } | { value: null; reason: string };

export const ok = <T>(value: T): Maybe<T> => ({ value, reason: null });
export const no = <T>(reason: string): Maybe<T> => ({ value: null, reason });
