/**
 * Feature sets from CSV (the Data tab's upload, beside the .npz of ./npz.ts): one row per image, a header naming the
 * columns, as a researcher writes a pandas DataFrame of timm or PyTorch features with `df.to_csv(F, index=False)`.
 *
 * - `label` (required): the class index of the row, a whole number 0 ≤ label < 1,000.
 * - `class_name` (optional): the class's name; every row of one label must give the same name. Without it classes are
 *   "class 0", "class 1", … up to the largest label.
 * - `split` (optional): `train` / `test` or 0 / 1. Without it every row is a training row.
 * - every other column is one feature dimension (at least one), each cell a finite number.
 *
 * Delimiter guessed (comma, semicolon or tab; core/formats/csv.ts). Bounded like the .npz (FEATURE_LIMITS) and by the
 * text's size; the first problem is refused with one sentence naming the line and column, and nothing is returned.
 */
import { grouped } from '../../core/config/limits';
import { checkFeatureSet, checkFeatureShape, FEATURE_LIMITS, FeatureSetError, type FeatureSet } from '../../core/features/feature-set';
import { readDelimited } from '../../core/formats/csv';

/** The largest CSV of features read (characters): 400 MB of text is about 40 M values. */
export const FEATURE_CSV_MAX_CHARS = 400_000_000;

const SPECIAL = new Set(['label', 'class_name', 'split']);

/** Reads and checks a feature set from CSV text (see the header); throws a FeatureSetError with one sentence. */
export function readFeaturesCsv(text: string, fileName = 'the CSV file', maxChars = FEATURE_CSV_MAX_CHARS): FeatureSet {
  if (text.length > maxChars)
    throw new FeatureSetError(
      `${fileName} is ${grouped(text.length)} characters long, more than the ${grouped(maxChars)} a feature CSV may have; save it as .npz instead (np.savez).`,
    );
  const { records } = readDelimited(text, { trim: true });
  if (records.length === 0) throw new FeatureSetError(`${fileName} is empty.`);
  const [head, ...rows] = records;
  const names = head.cells.map((c) => c.toLowerCase());
  const col = (name: string) => names.indexOf(name);
  for (const name of SPECIAL) {
    if (names.indexOf(name) !== names.lastIndexOf(name)) throw new FeatureSetError(`${fileName} has two "${name}" columns.`);
  }
  const labelAt = col('label');
  if (labelAt < 0)
    throw new FeatureSetError(
      `${fileName} has no "label" column in its first line (${head.cells.slice(0, 5).join(', ')}${head.cells.length > 5 ? ', …' : ''}); name the class column "label".`,
    );
  const nameAt = col('class_name');
  const splitAt = col('split');
  const featureCols = names.flatMap((n, k) => (SPECIAL.has(n) ? [] : [k]));
  const d = featureCols.length;
  if (d === 0) throw new FeatureSetError(`${fileName} has no feature columns: every column besides label, class_name and split is one dimension.`);
  const n = rows.length;
  if (n === 0) throw new FeatureSetError(`${fileName} has a header and no rows of features.`);
  checkFeatureShape(n, d);
  const features = new Float32Array(n * d);
  const labels = new Int32Array(n);
  const split = new Uint8Array(n);
  const classNames = new Map<number, string>();
  let maxLabel = -1;
  rows.forEach((r, i) => {
    const where = `line ${r.line} of ${fileName}`;
    if (r.quoteError) throw new FeatureSetError(`On ${where} a quoted field is not closed properly.`);
    if (r.cells.length !== head.cells.length)
      throw new FeatureSetError(`On ${where} there are ${r.cells.length} values; the header has ${head.cells.length} columns.`);
    const l = r.cells[labelAt];
    if (!/^\d+$/.test(l)) throw new FeatureSetError(`On ${where} the label is ${JSON.stringify(l)}; labels are class indices 0, 1, 2, …`);
    const y = Number(l);
    if (y >= FEATURE_LIMITS.classes)
      throw new FeatureSetError(
        `On ${where} the label is ${l}, outside the ${grouped(FEATURE_LIMITS.classes)} classes allowed (0–${FEATURE_LIMITS.classes - 1}).`,
      );
    labels[i] = y;
    maxLabel = Math.max(maxLabel, y);
    if (nameAt >= 0) {
      const name = r.cells[nameAt];
      const known = classNames.get(y);
      if (known === undefined) classNames.set(y, name);
      else if (known !== name)
        throw new FeatureSetError(
          `On ${where} label ${y} is called ${JSON.stringify(name)}, and ${JSON.stringify(known)} on an earlier line; one name per label.`,
        );
    }
    if (splitAt >= 0) {
      const s = r.cells[splitAt].toLowerCase();
      if (s === 'train' || s === '0') split[i] = 0;
      else if (s === 'test' || s === '1') split[i] = 1;
      else throw new FeatureSetError(`On ${where} the split is ${JSON.stringify(r.cells[splitAt])}; use train or test (or 0 and 1).`);
    }
    for (let k = 0; k < d; k++) {
      const cell = r.cells[featureCols[k]];
      const v = cell === '' ? NaN : Number(cell);
      if (!Number.isFinite(v))
        throw new FeatureSetError(`On ${where} column "${head.cells[featureCols[k]]}" is ${JSON.stringify(cell)}; every feature must be a finite number.`);
      features[i * d + k] = v;
    }
  });
  const names2 = Array.from({ length: maxLabel + 1 }, (_, k) => classNames.get(k) ?? `class ${k}`);
  return checkFeatureSet({ features, n, d, labels, split, classNames: names2 });
}
