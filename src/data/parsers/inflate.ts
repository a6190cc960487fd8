/**
 * Inflating no further than a bound: a deflate (or zlib) stream fed to fflate's streaming inflater in slices, its
 * output counted as it comes, and stopped the moment it passes `limit` — a header that promises a small size over a
 * stream of gigabytes (a PNG bomb, a zip whose directory lies) costs at most one slice's worth (deflate's largest
 * ratio is about 1 032 : 1) beyond the bound, never the whole stream. fflate's one-shot `inflateSync` has no such
 * stop: given a buffer of the declared size it decodes the rest of the stream into nowhere.
 */
import { Inflate, Unzlib } from 'fflate';

/** Compressed bytes fed at a time at most: a stream is stopped within about 17 MB past its bound. */
export const INFLATE_SLICE = 1 << 14;

/** How a bounded inflate ended: `over` (the stream went past the bound), `stopped` (the reader had enough) or `ended`. */
export type InflateEnd = { end: 'ended'; bytes: number } | { end: 'stopped'; bytes: number } | { end: 'over'; bytes: number };

/** The stream itself is damaged (fflate's message); an error of the reader is never one. */
export class InflateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InflateError';
  }
}

class Stop {
  constructor(readonly over: boolean) {}
}

/**
 * Inflates `data` (raw deflate, or zlib with `zlib: true`), handing each piece to `onChunk` in order until the stream
 * ends, `onChunk` returns false, or the output would pass `limit` bytes (the piece that would pass it is not handed
 * over). Damaged data throws an InflateError; an error from `onChunk` goes through as it is.
 */
export function inflateBounded(
  data: Uint8Array,
  limit: number,
  onChunk: (chunk: Uint8Array) => boolean | void,
  opts: { zlib?: boolean; slice?: number } = {},
): InflateEnd {
  // a small bound takes small slices (a 1×1 PNG's 4 bytes: 1 KB, at most about 1 MB inflated to find the stream too long)
  const slice = opts.slice ?? Math.min(INFLATE_SLICE, Math.max(1024, Math.ceil(limit / 512)));
  let bytes = 0;
  let fromReader: { error: unknown } | null = null;
  const ondata = (chunk: Uint8Array) => {
    if (bytes + chunk.length > limit) {
      bytes += chunk.length;
      throw new Stop(true);
    }
    bytes += chunk.length;
    let more: boolean | void;
    try {
      more = onChunk(chunk);
    } catch (error) {
      fromReader = { error };
      throw error;
    }
    if (more === false) throw new Stop(false);
  };
  const inflater = opts.zlib ? new Unzlib(ondata) : new Inflate(ondata);
  try {
    if (data.length === 0) inflater.push(data, true);
    for (let at = 0; at < data.length; at += slice) {
      const end = Math.min(data.length, at + slice);
      inflater.push(data.subarray(at, end), end === data.length);
    }
  } catch (e) {
    if (fromReader) throw (fromReader as { error: unknown }).error;
    if (e instanceof Stop) return { end: e.over ? 'over' : 'stopped', bytes };
    throw new InflateError(e instanceof Error ? e.message : String(e));
  }
  return { end: 'ended', bytes };
}
