/**
 * The Orderings page's inputs, resolved from its controls: each problem becomes a message shown next to the control
 * that caused it (pure; tests/unit/ui/orderings-inputs.test.ts). ./orderings-inputs.svelte.ts derives the inputs with these.
 */
import type { ClassList } from '../../core/classes/builtin';
import { parseClassNames, validateClassNames } from '../../core/classes/validate';
import { parseTaskSizes, resolveTaskSizes } from '../../core/orderings/task-sizes';
import { listClassesWithPins, wordnetPinsFor } from '../../core/config/wordnet-pins';
import { PROTOCOLS_SETTINGS } from '../../core/labs/orderings/settings';

/** "0, 42, 1993" → [0, 42, 1993]; each seed a whole number in the RS seeds' bounds, 0..2^32−1 (numpy's accepted range). */
export function parseSeeds(text: string): number[] {
  const { min, max, maxLength } = PROTOCOLS_SETTINGS.rsSeeds;
  const parts = text.split(/[\s,]+/).filter((p) => p.length > 0);
  if (parts.length === 0) throw new Error('Give at least one RS seed (for example 0, 42, 1993).');
  // what the link's check refuses is refused here, in words, so a typed list never silently keeps the old one
  if (parts.length > maxLength) throw new Error(`At most ${maxLength} RS seeds; got ${parts.length}.`);
  const seen = new Set<number>();
  return parts.map((p) => {
    if (!/^\d+$/.test(p) || Number(p) < min || Number(p) > max) {
      throw new Error(`Seed "${p}" is not a whole number between ${min} and ${max}.`);
    }
    const n = Number(p);
    if (seen.has(n)) throw new Error(`Seed ${n} is listed twice; give each seed once.`);
    seen.add(n);
    return n;
  });
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The class list of the experiment: a built-in list's selected classes (in label order), or the custom names. */
export interface ClassesInput {
  names: string[];
  /** WordNet synset per class (a built-in list's pins, or the config's pins for custom names); undefined: none. */
  pins: (string | undefined)[] | undefined;
  error: string;
}

/** The classes for a built-in `list` (its `selected` indices) or, without a list, the custom names' text. */
export function resolveClasses(list: ClassList | undefined, selected: readonly number[], customText: string, pinned: Record<string, string>): ClassesInput {
  try {
    const hasPins = Object.keys(pinned).length > 0;
    if (!list) {
      const names = validateClassNames(parseClassNames(customText));
      return { names, pins: hasPins ? wordnetPinsFor(pinned, names) : undefined, error: '' };
    }
    const idx = [...selected].sort((a, b) => a - b);
    if (idx.length < 2) return { names: [], pins: undefined, error: 'Select at least two classes.' };
    return { ...listClassesWithPins(list, idx, pinned), error: '' };
  } catch (e) {
    return { names: [], pins: undefined, error: message(e) };
  }
}

/** Task sizes for `n` classes: `tasks` equal tasks, or the explicit sizes typed ("3,2,1"). */
export function resolveSizes(n: number, tasks: number, sizesText: string): { sizes: number[]; error: string } {
  if (n === 0) return { sizes: [], error: '' };
  try {
    const explicit = sizesText.trim() ? parseTaskSizes(sizesText) : undefined;
    return { sizes: resolveTaskSizes(n, { tasks, taskSizes: explicit }), error: '' };
  } catch (e) {
    return { sizes: [], error: message(e) };
  }
}

/** The RS seeds; an empty field is fine while RS is off. */
export function resolveSeeds(rsEnabled: boolean, seedsText: string): { seeds: number[]; error: string } {
  if (!rsEnabled && seedsText.trim() === '') return { seeds: [], error: '' };
  try {
    return { seeds: parseSeeds(seedsText), error: '' };
  } catch (e) {
    return { seeds: [], error: message(e) };
  }
}

/**
 * What a built-in list starts with when it is picked in the menu (CIFAR-100 used to keep 6 of its 100
 * classes, so 10 tasks failed until "All"): every class, as CIL papers split a dataset, and the task count kept when
 * it splits them evenly, else the usual one (10 tasks when the classes split into 10 tasks of two or more, else 5, 4,
 * 3 or 2).
 */
export function defaultPick(classCount: number, tasks: number): { selected: number[]; tasks: number } {
  const selected = Array.from({ length: classCount }, (_, i) => i);
  if (Number.isInteger(tasks) && tasks >= 1 && tasks <= classCount && classCount % tasks === 0) return { selected, tasks };
  return { selected, tasks: [10, 5, 4, 3, 2].find((k) => classCount % k === 0 && classCount / k >= 2) ?? 1 };
}
