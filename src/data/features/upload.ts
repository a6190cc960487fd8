/**
 * An uploaded feature file, whichever its format: a NumPy .npz (./npz.ts) or CSV text (./csv.ts), told apart by the
 * bytes (an .npz is a zip). Bounded before anything is decoded; the first problem is one sentence (FeatureSetError)
 * and nothing is returned.
 */
import { grouped } from '../../core/config/limits';
import { FeatureSetError, type FeatureSet } from '../../core/features/feature-set';
import { FEATURE_CSV_MAX_CHARS, readFeaturesCsv } from './csv';
import { isNpz, readFeaturesNpz } from './npz';

/** The largest feature file read (bytes): a 400 MB float32 array, or the longest CSV, plus their headers. */
export const FEATURE_FILE_MAX_BYTES = 420_000_000;

/** Throws when a file of `size` bytes is more than a feature file may have (before its bytes are read). */
export function checkFeatureFileSize(size: number, fileName: string, maxBytes = FEATURE_FILE_MAX_BYTES): void {
  if (size > maxBytes) throw new FeatureSetError(`${fileName} is ${grouped(size)} bytes, more than the ${grouped(maxBytes)} a feature file may have.`);
}

/** The feature set of an uploaded file's bytes (.npz or CSV). */
export function readFeatureFile(bytes: Uint8Array, fileName: string, maxBytes = FEATURE_FILE_MAX_BYTES): FeatureSet {
  checkFeatureFileSize(bytes.length, fileName, maxBytes);
  if (bytes.length === 0) throw new FeatureSetError(`${fileName} is empty.`);
  if (isNpz(bytes)) return readFeaturesNpz(bytes, fileName);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new FeatureSetError(`${fileName} is neither an .npz file nor UTF-8 text (CSV): save the features with np.savez or df.to_csv.`);
  }
  return readFeaturesCsv(text, fileName, Math.min(FEATURE_CSV_MAX_CHARS, maxBytes));
}
