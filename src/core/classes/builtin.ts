/**
 * The built-in class lists (docs/science.md §6): each dataset's class names in the dataset's own label order, and one
 * pinned WordNet 3.1 noun synset per class ("n" + 8-digit offset in WordNet 3.1's data.noun), chosen by reading
 * the glosses (run `node scripts/check-pins.mjs` to review them), so that WordNet similarity never falls into a
 * wrong first sense ("tiger" the person, "seal" the wax, "ray" the beam of light).
 *
 * Sources of the names: CIFAR-10/100 and (Fashion-)MNIST as their loaders list them; CUB-200-2011's classes.txt
 * (the part after "NNN.", typos such as "Artic_Tern" kept); ImageNet-R's 200 classes in the order torchvision's
 * ImageFolder gives them (sorted ImageNet wnids, see IMAGENET_R_WNIDS) with the short names commonly used for
 * them (e.g. in CODA-Prompt-style continual-learning code); emoji: our own list of concrete single-emoji concepts,
 * with code points, for a later issue that rasterises them.
 *
 * The rows are data (./builtin-classes.json). Pins that are not the species/object itself say so in the row's note: WordNet lacks many bird species, so those CUB
 * classes are pinned to their genus or family (several classes can then share a synset, and their Wu–Palmer
 * similarity is 1: WordNet cannot tell them apart). ImageNet uses WordNet 3.0 ids; the pins here are the matching
 * WordNet 3.1 synsets (checked lemma by lemma), not the 3.0 offsets.
 */

import builtinClasses from './builtin-classes.json' with { type: 'json' };

export type BuiltinClassListId = 'cifar10' | 'cifar100' | 'mnist' | 'fashion-mnist' | 'cub200' | 'imagenet-r' | 'emoji';

export interface ClassList {
  id: BuiltinClassListId;
  /** display name */
  name: string;
  /** class names, in the dataset's label order (index = label) */
  classes: string[];
  /** one pinned WordNet 3.1 noun synset id per class */
  synsets: string[];
  /** where the names come from */
  source: string;
}

export interface EmojiClass {
  name: string;
  /** the fully-qualified emoji (with U+FE0F where the code point defaults to text presentation) */
  emoji: string;
  /** the base code point, hex, upper case, as emoji fonts name their files (e.g. "1F415") */
  codepoint: string;
  /** Unicode emoji group and subgroup (emoji-test.txt) */
  group: string;
  subgroup: string;
}

export interface EmojiClassList extends ClassList {
  id: 'emoji';
  emoji: EmojiClass[];
}

type Row = readonly [name: string, synset: string];

/** The lists' rows (./builtin-classes.json): each a class's fields, then an optional note on its synset. */
const DATA = builtinClasses;

/** A row's first `n` fields (its note, where it has one, stays in the data file). */
function fields(row: readonly string[], n: number): readonly string[] {
  if (row.length < n || row.length > n + 1) throw new Error(`builtin-classes.json: a row of ${row.length} fields (${row[0]}); ${n} expected, then a note`);
  return row.slice(0, n);
}

function list(id: BuiltinClassListId, name: string, source: string, rows: readonly Row[]): ClassList {
  return { id, name, source, classes: rows.map((r) => r[0]), synsets: rows.map((r) => r[1]) };
}

const CIFAR10_ROWS: readonly Row[] = DATA['cifar10'].map((r) => fields(r, 2) as unknown as Row);

const CIFAR100_ROWS: readonly Row[] = DATA['cifar100'].map((r) => fields(r, 2) as unknown as Row);

const MNIST_ROWS: readonly Row[] = DATA['mnist'].map((r) => fields(r, 2) as unknown as Row);

const FASHION_MNIST_ROWS: readonly Row[] = DATA['fashion-mnist'].map((r) => fields(r, 2) as unknown as Row);

const CUB200_ROWS: readonly Row[] = DATA['cub200'].map((r) => fields(r, 2) as unknown as Row);

/** ImageNet-R's classes as ImageNet (WordNet 3.0) wnids, in class-index order (sorted; torchvision ImageFolder). */
export const IMAGENET_R_WNIDS: readonly string[] = DATA['imagenet-r-wnids'];

const IMAGENET_R_ROWS: readonly Row[] = DATA['imagenet-r'].map((r) => fields(r, 2) as unknown as Row);

const EMOJI_ROWS = DATA.emoji.map(
  (r) => fields(r, 5) as unknown as readonly [name: string, codepoint: string, group: string, subgroup: string, synset: string],
);

/** U+FE0F is appended to these base code points (default text presentation) to get the emoji glyph. */
const TEXT_DEFAULT = new Set([
  '1F3CD',
  '1F56F',
  '1F577',
  '1F5A8',
  '1F5B1',
  '1F6CB',
  '1F6CF',
  '1F6E1',
  '1F6F0',
  '2328',
  '2600',
  '2601',
  '2602',
  '260E',
  '2702',
  '2708',
  '2709',
  '270F',
]);

function emojiList(): EmojiClassList {
  const emoji: EmojiClass[] = EMOJI_ROWS.map(([name, codepoint, group, subgroup]) => ({
    name,
    emoji: String.fromCodePoint(parseInt(codepoint, 16)) + (TEXT_DEFAULT.has(codepoint) ? '\uFE0F' : ''),
    codepoint,
    group,
    subgroup,
  }));
  return {
    id: 'emoji',
    name: 'Emoji objects',
    source: 'CIL Lab: concrete single-emoji concepts (animals, plants, food, vehicles, household objects…) with their code points',
    classes: EMOJI_ROWS.map((r) => r[0]),
    synsets: EMOJI_ROWS.map((r) => r[4]),
    emoji,
  };
}

export const CIFAR10 = list('cifar10', 'CIFAR-10', 'CIFAR-10 label order (torchvision CIFAR10.classes)', CIFAR10_ROWS);
export const CIFAR100 = list('cifar100', 'CIFAR-100', 'CIFAR-100 fine-label index order (meta fine_label_names)', CIFAR100_ROWS);
export const MNIST = list('mnist', 'MNIST', 'MNIST digits 0–9, named as words', MNIST_ROWS);
export const FASHION_MNIST = list('fashion-mnist', 'Fashion-MNIST', 'Fashion-MNIST label order (torchvision FashionMNIST.classes)', FASHION_MNIST_ROWS);
export const CUB200 = list('cub200', 'CUB-200-2011', 'CUB-200-2011 classes.txt order, names after "NNN."', CUB200_ROWS);
export const IMAGENET_R = list('imagenet-r', 'ImageNet-R', 'ImageNet-R: its 200 ImageNet classes in sorted-wnid order (IMAGENET_R_WNIDS)', IMAGENET_R_ROWS);
export const EMOJI: EmojiClassList = emojiList();

export const BUILTIN_CLASS_LISTS: readonly ClassList[] = [CIFAR10, CIFAR100, MNIST, FASHION_MNIST, CUB200, IMAGENET_R, EMOJI];

export const BUILTIN_CLASS_LIST_IDS: readonly BuiltinClassListId[] = BUILTIN_CLASS_LISTS.map((l) => l.id);

/** The built-in list with this id; throws an Error listing the valid ids for an unknown one. */
export function getClassList(id: string): ClassList {
  const key = id.trim().toLowerCase();
  const found = BUILTIN_CLASS_LISTS.find((l) => l.id === key);
  if (!found) {
    throw new Error(`Unknown class list "${id}". Valid ids: ${BUILTIN_CLASS_LIST_IDS.join(', ')}.`);
  }
  return found;
}
