/**
 * The class orders of the Your-classes lab's ground truth (docs/science.md §10): one class per task, every order of
 * the visitor's classes in rank order (the first is the order they taught), at most 6 classes.
 */
import { enumerateOrderings } from '../orderings/enumerate';

/** Orderings the ground truth trains at most (8! would be 40 320 heads): 6 classes, 720 orderings. */
export const OWN_MAX_ORDERINGS = 720;

/** Every class order of C classes in rank order (the first is the teaching order); at most OWN_MAX_ORDERINGS. */
export function everyOwnOrder(C: number): number[][] {
  let total = 1;
  for (let k = 2; k <= C; k++) total *= k;
  if (total > OWN_MAX_ORDERINGS) throw new RangeError(`${C} classes have ${total} orderings; every ordering is trained for at most 6 classes (720).`);
  return [...enumerateOrderings(new Array<number>(C).fill(1))].map((o) => o.map((t) => t[0]));
}
