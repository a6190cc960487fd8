import { describe, expect, it } from 'vitest';
import { gzipSync } from 'fflate';
import { crc32, gunzipBytes, gunzipHead, isGzip } from '../../../../src/data/parsers/gzip';
import { DataFormatError } from '../../../../src/data/parsers/types';
import { fixture, isMonotoneToOne, progressLog } from './helpers';

describe('gunzip with progress and trailer checks', () => {
  it('crc32 check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });
  it('decompresses Python-made gzip, reporting progress', () => {
    const { log, cb } = progressLog();
    const out = gunzipBytes(fixture('idx/train-images-idx3-ubyte.gz'), cb);
    expect(out).toEqual(fixture('idx/train-images-idx3-ubyte'));
    expect(isMonotoneToOne(log)).toBe(true);
  });
  it('handles multi-member streams and data larger than the slice size', () => {
    const big = new Uint8Array(3_000_000).map((_, i) => (i * 7) % 251);
    const a = gzipSync(big.subarray(0, 1_000_000));
    const b = gzipSync(big.subarray(1_000_000));
    const both = new Uint8Array(a.length + b.length);
    both.set(a);
    both.set(b, a.length);
    const out = gunzipBytes(both);
    // byte for byte (Buffer.equals: toEqual walks 3 million elements one by one, seconds for the same answer)
    expect(out.length).toBe(big.length);
    expect(Buffer.from(out.buffer, out.byteOffset, out.length).equals(big)).toBe(true);
  });
  it('every truncation of a gzip file is an error, never short data', () => {
    const gz = fixture('cifar10/cifar-10-binary.tar.gz');
    for (let cut = 0; cut < gz.length; cut += cut < 40 ? 1 : 37) {
      expect(() => gunzipBytes(gz.subarray(0, cut), undefined, 'c.tgz'), `cut at ${cut}`).toThrow(DataFormatError);
    }
    expect(() => gunzipBytes(gz.subarray(0, gz.length - 3), undefined, 'c.tgz')).toThrow(/^c\.tgz: corrupt or truncated gzip data/);
  });
  it('a flipped byte in the data is caught', () => {
    const gz = fixture('idx/train-images-idx3-ubyte.gz').slice();
    gz[gz.length - 12] ^= 0x10;
    expect(() => gunzipBytes(gz)).toThrow(DataFormatError);
  });
  it('tiny and non-gzip inputs', () => {
    expect(() => gunzipBytes(new Uint8Array([0x1f, 0x8b, 8]))).toThrow('truncated gzip file: 3 bytes, a gzip stream needs at least 18');
    expect(() => gunzipBytes(new Uint8Array([1, 2, 3]))).toThrow('not a gzip file (does not start with 1f 8b)');
    expect(isGzip(new Uint8Array([0x1f]))).toBe(false);
  });
  it('gunzipHead decompresses only the start', () => {
    const head = gunzipHead(fixture('cifar10/cifar-10-binary.tar.gz'), 512);
    expect(head.length).toBe(512);
    expect(new TextDecoder().decode(head.subarray(257, 262))).toBe('ustar');
    expect(gunzipHead(gzipSync(new Uint8Array([1, 2, 3])), 16)).toEqual(new Uint8Array([1, 2, 3]));
  });
});
