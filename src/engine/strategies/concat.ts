import { concatInt32 } from '../../core/arrays';

/** Concatenate example-index arrays (training set = current task + memory). */
export function concatExamples(...parts: Int32Array[]): Int32Array {
  return concatInt32(parts);
}
