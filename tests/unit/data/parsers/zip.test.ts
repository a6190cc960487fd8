/**
 * The zip reader that does not trust its zip (src/data/parsers/zip.ts) and the bounded inflater under it
 * (src/data/parsers/inflate.ts): members read from the central directory as fflate writes them, none inflated past
 * the size its directory declares — a lying member is refused after a bounded amount of work, whatever its stream
 * holds — and a header read without inflating the rest.
 */
import { deflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { inflateBounded } from '../../../../src/data/parsers/inflate';
import { DataFormatError } from '../../../../src/data/parsers/types';
import { readZipDirectory, streamZipEntry, zipEntryBytes, zipEntryHead } from '../../../../src/data/parsers/zip';
import { garbage, rawZip } from '../../drills/broken-upload-corpus';
import { deflatedZeros } from '../../drills/hostile-files';

/** Seeded bytes of 4 bits each: compressible, not trivially. */
const seeded = (n: number, seed = 7) => garbage(n, seed).map((b) => b & 0x0f);

describe('readZipDirectory and zipEntryBytes', () => {
  it('read back what fflate zips, stored and deflated, small and large (streamed in slices)', () => {
    const big = seeded(200_000);
    const zip = zipSync({ 'a/x.bin': [seeded(100), { level: 0 }], 'a/big.bin': [big, { level: 6 }], 'é.txt': strToU8('café') });
    const entries = readZipDirectory(zip);
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ['a/x.bin', 0, 100],
      ['a/big.bin', 8, 200_000],
      ['é.txt', 8, 5],
    ]);
    expect(zipEntryBytes(zip, entries[0])).toEqual(seeded(100));
    expect(zipEntryBytes(zip, entries[1])).toEqual(big);
    expect(new TextDecoder().decode(zipEntryBytes(zip, entries[2]))).toBe('café');
    expect(zipEntryHead(zip, entries[1], 10)).toEqual(big.subarray(0, 10));
  });

  it('refuses a member whose stream goes on past its declared size, having inflated at most a slice more', () => {
    const z = deflatedZeros(300_000_000); // 300 MB of zeros in 300 KB
    const zip = rawZip([{ name: 'b/1.png', data: z.data, method: 8, size: 1000 }]);
    const [entry] = readZipDirectory(zip);
    expect(() => zipEntryBytes(zip, entry, 'lie.zip')).toThrow(
      'lie.zip: zip member "b/1.png" inflates to more than the 1,000 bytes its directory declares (a damaged zip, or a zip bomb); nothing past that was read',
    );
    let seen = 0;
    expect(() =>
      streamZipEntry(zip, { ...entry, size: 50_000_000 }, (c) => {
        seen += c.length;
      }),
    ).toThrow(DataFormatError);
    expect(seen).toBeLessThanOrEqual(50_000_000);
    // a stop, not a walk through 300 MB (no timing is asserted: the drills print it)
    // a small stream (inflated in one go into a buffer one byte longer than declared) is refused the same way
    const small = deflatedZeros(10_000_000);
    const smallZip = rawZip([{ name: 'a.bin', data: small.data, method: 8, size: 1000 }]);
    expect(small.data.length).toBeLessThan(16_384);
    expect(() => zipEntryBytes(smallZip, readZipDirectory(smallZip)[0])).toThrow(/inflates to more than the 1,000 bytes its directory declares/);
  });

  it('refuses a member that ends short of its declared size, and a stored one whose sizes differ', () => {
    const data = new Uint8Array(deflateRawSync(seeded(1000)));
    const short = rawZip([{ name: 'a.bin', data, method: 8, size: 2000 }]);
    expect(() => zipEntryBytes(short, readZipDirectory(short)[0])).toThrow('zip member "a.bin" inflates to 1,000 bytes, its directory declares 2,000 bytes');
    const stored = rawZip([{ name: 'a.bin', data: seeded(10), method: 0, size: 12 }]);
    expect(() => zipEntryBytes(stored, readZipDirectory(stored)[0])).toThrow(/inflates to 10 bytes, its directory declares 12/);
  });

  it('says what is wrong with a directory that cannot be walked', () => {
    const zip = zipSync({ 'a.txt': strToU8('hi') });
    expect(() => readZipDirectory(zip.subarray(0, zip.length - 10), 'cut.zip')).toThrow(/^cut\.zip: corrupt or truncated zip archive/);
    const many = rawZip([{ name: 'a', data: strToU8('x'), method: 0, size: 1 }], { count: 65_535 });
    expect(() => readZipDirectory(many)).toThrow('its end record says it has 65 535 entries, but its central directory has room for at most 1');
    const damaged = rawZip([{ name: 'a.bin', data: Uint8Array.of(0xff, 0xff, 0xff), method: 8, size: 3 }]);
    expect(() => zipEntryBytes(damaged, readZipDirectory(damaged)[0])).toThrow(/does not inflate .*: the zip is damaged/);
    const method = rawZip([{ name: 'a.bin', data: strToU8('x'), method: 0, size: 1 }]);
    method[8] = 12; // the local header says bzip2
    const entries = readZipDirectory(method);
    expect(() => zipEntryBytes(method, { ...entries[0], method: 12 })).toThrow(/compressed with bzip2/);
  });
});

describe('inflateBounded', () => {
  it('hands over the whole stream in order, or stops where the reader asks', () => {
    const raw = seeded(200_000);
    const data = new Uint8Array(deflateRawSync(raw));
    const parts: Uint8Array[] = [];
    expect(inflateBounded(data, raw.length, (c) => void parts.push(c), { slice: 512 })).toEqual({ end: 'ended', bytes: raw.length });
    expect(Buffer.concat(parts).equals(Buffer.from(raw))).toBe(true);
    let got = 0;
    const r = inflateBounded(data, raw.length, (c) => ((got += c.length), false), { slice: 512 });
    expect(r.end).toBe('stopped');
    expect(got).toBeLessThan(raw.length);
  });
  it('ends as "over" the moment the output would pass the bound, handing over nothing past it', () => {
    const data = new Uint8Array(deflateRawSync(seeded(100_000)));
    let got = 0;
    const r = inflateBounded(data, 99_999, (c) => void (got += c.length), { slice: 256 });
    expect(r.end).toBe('over');
    expect(got).toBeLessThanOrEqual(99_999);
  });
});
