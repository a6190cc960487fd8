/**
 * Shared shapes of the user-data parsers ("The user's own data"): bytes in, typed arrays out.
 * Pure TS: no DOM, no tfjs — the parsers run in a worker or in Node.
 */

/** A decoded image set: `images` is N×H×W×C uint8 (row-major, channels last), `labels` has N entries. */
export interface ParsedImages {
  images: Uint8Array;
  labels: Uint8Array | Int32Array;
  /** [height, width, channels] of one image. */
  shape: [number, number, number];
  /** Name of class k at index k, when the files carry names. */
  classNames?: string[];
  /** CIFAR-100 only: the coarse (super-class) label of each image. */
  coarseLabels?: Uint8Array;
  /** CIFAR-100 only: names of the 20 super-classes. */
  coarseClassNames?: string[];
}

/** A train set and, when the files have one, the test set. */
export interface ParsedDataset {
  train: ParsedImages;
  test?: ParsedImages;
}

/** A file as the user dropped it (or an archive member): its name and bytes. */
export interface NamedFile {
  name: string;
  bytes: Uint8Array;
}

/** Called with the fraction done, in [0,1], non-decreasing; the last call is 1. */
export type ProgressCallback = (fraction: number) => void;

/** A file that is not what it claims to be; the message says what was expected and what was found. */
export class DataFormatError extends Error {
  /** The file (or archive member) at fault, when known. */
  readonly fileName?: string;
  constructor(message: string, fileName?: string) {
    super(fileName ? `${fileName}: ${message}` : message);
    this.name = 'DataFormatError';
    this.fileName = fileName;
  }
}

/** Progress of a sub-step mapped onto [from, to] of the caller's bar (no-op without a callback). */
export function subProgress(onProgress: ProgressCallback | undefined, from: number, to: number): ProgressCallback | undefined {
  if (!onProgress) return undefined;
  return (f) => onProgress(from + (to - from) * Math.min(1, Math.max(0, f)));
}

/** File name without directories ("a/b/c.bin" → "c.bin"). */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1];
}

/** "1 234 567 bytes" style counts in messages. */
export function bytesText(n: number): string {
  return `${n.toLocaleString('en-US')} bytes`;
}
