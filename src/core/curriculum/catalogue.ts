/**
 * The Curriculum lab's datasets (docs/science.md §8): every task is a whole 10-class dataset taken from the built-in
 * data. Digits and Fashion-MNIST are used whole; the emoji datasets are fixed lists of 10 classes each from the 198
 * emoji classes (every one of them loads: public/data/emoji/meta.json has 4–5 training and 2 test renderings per
 * class, and the registry checks the names against the class list). A list is frozen once released: a stored
 * result or a share link names the dataset by its id.
 *
 * All tasks are brought to one input shape (CURRICULUM_SHAPE, 28×28 grey: the MLP's input of Fashion-MNIST; digits
 * are scaled up from 8×8, emoji scaled down from 32×32 RGB and turned grey) by the data layer.
 *
 * Pure TS, no imports outside src/core.
 */

/** The built-in image datasets a curriculum dataset is cut from (ids of src/data/registry.ts). */
export type CurriculumSource = 'digits' | 'fashion-mnist' | 'emoji';

export interface CurriculumDataset {
  id: string;
  /** what the UI shows */
  name: string;
  source: CurriculumSource;
  /** the source's class names, in the task's label order (10 each) */
  classes: readonly string[];
}

/** Every curriculum dataset has this many classes, so a task's accuracy means the same thing for every task (§8). */
export const CLASSES_PER_DATASET = 10;

/** [height, width, channels] of every task's images. */
export const CURRICULUM_SHAPE: readonly [number, number, number] = [28, 28, 1];
export const CURRICULUM_SHAPE_TEXT = '28×28 grey';

const DIGIT_NAMES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const FASHION_NAMES = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot'];

/** A curriculum dataset of ten emoji classes (`emoji-<topic>`, "Emoji <topic>"). */
function emojiSet(topic: string, classes: string[]): CurriculumDataset {
  return { id: `emoji-${topic}`, name: `Emoji ${topic}`, source: 'emoji', classes };
}

export const CURRICULUM_DATASETS: readonly CurriculumDataset[] = Object.freeze([
  { id: 'digits', name: 'Digits', source: 'digits', classes: DIGIT_NAMES },
  { id: 'fashion-mnist', name: 'Fashion-MNIST', source: 'fashion-mnist', classes: FASHION_NAMES },
  emojiSet('animals', ['dog', 'cat', 'horse', 'cow', 'pig', 'elephant', 'monkey', 'penguin', 'fish', 'butterfly']),
  emojiSet('food', ['apple', 'banana', 'watermelon', 'grape', 'strawberry', 'bread', 'cheese', 'hamburger', 'pizza', 'cake']),
  emojiSet('vehicles', ['bicycle', 'car', 'bus', 'ambulance', 'truck', 'tractor', 'motorcycle', 'sailboat', 'airplane', 'helicopter']),
  emojiSet('objects', ['guitar', 'telephone', 'laptop', 'camera', 'light bulb', 'book', 'scissors', 'key', 'hammer', 'umbrella']),
  emojiSet('clothing', ['glasses', 'necktie', 't-shirt', 'jeans', 'dress', 'handbag', 'backpack', 'boot', 'sneaker', 'crown']),
]);

export const CURRICULUM_DATASET_IDS: readonly string[] = CURRICULUM_DATASETS.map((d) => d.id);

/** The lab's default curriculum: 4 datasets (4! = 24 orders). */
export const DEFAULT_CURRICULUM: readonly string[] = Object.freeze(['digits', 'fashion-mnist', 'emoji-animals', 'emoji-vehicles']);

/** Most datasets in one curriculum (every order is trained only up to 6: 720 orders). */
export const MAX_CURRICULUM_DATASETS = CURRICULUM_DATASETS.length;

export class CurriculumError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CurriculumError';
  }
}

export function curriculumDataset(id: string): CurriculumDataset {
  const d = CURRICULUM_DATASETS.find((x) => x.id === id);
  if (!d) throw new CurriculumError(`Unknown curriculum dataset "${id}": use ${CURRICULUM_DATASET_IDS.join(', ')}.`);
  return d;
}

/** A curriculum's datasets checked: at least 2, distinct, known, at most MAX_CURRICULUM_DATASETS. */
export function checkCurriculum(ids: readonly string[]): CurriculumDataset[] {
  if (ids.length < 2) throw new CurriculumError(`A curriculum needs at least 2 datasets; got ${ids.length}.`);
  if (ids.length > MAX_CURRICULUM_DATASETS) throw new CurriculumError(`A curriculum has at most ${MAX_CURRICULUM_DATASETS} datasets; got ${ids.length}.`);
  const seen = new Set<string>();
  return ids.map((id) => {
    if (seen.has(id)) throw new CurriculumError(`Dataset "${id}" is listed twice; list each dataset once.`);
    seen.add(id);
    return curriculumDataset(id);
  });
}

/**
 * The source class indices of a dataset, given the source's class names in label order: digits and Fashion-MNIST
 * all ten, an emoji dataset its listed names. Throws naming a class the source lacks.
 */
export function sourceClassIndices(d: CurriculumDataset, sourceClassNames: readonly string[]): number[] {
  if (d.source !== 'emoji') {
    if (sourceClassNames.length !== CLASSES_PER_DATASET)
      throw new CurriculumError(`${d.name} should have ${CLASSES_PER_DATASET} classes; the data has ${sourceClassNames.length}.`);
    return Array.from({ length: CLASSES_PER_DATASET }, (_, i) => i);
  }
  return d.classes.map((name) => {
    const i = sourceClassNames.indexOf(name);
    if (i < 0) throw new CurriculumError(`${d.name}: the emoji data has no class "${name}".`);
    return i;
  });
}
