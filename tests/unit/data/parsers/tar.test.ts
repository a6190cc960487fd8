import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'fflate';
import expected from '../../../fixtures/parsers/expected.json';
import { looksLikeTar, readTar } from '../../../../src/data/parsers/tar';
import { fixture } from './helpers';

const cifar10Tar = () => gunzipSync(fixture('cifar10/cifar-10-binary.tar.gz')); // PAX format (Python default)
const cifar100Tar = () => gunzipSync(fixture('cifar100/cifar-100-binary.tar.gz')); // GNU format

describe('readTar (ustar + pax/GNU long names)', () => {
  it('lists directories and files of a PAX archive, long names included', () => {
    const entries = readTar(cifar10Tar());
    expect(entries.map((e) => `${e.type}:${e.name}`)).toEqual([
      'directory:cifar-10-batches-bin',
      'file:cifar-10-batches-bin/data_batch_1.bin',
      'file:cifar-10-batches-bin/data_batch_2.bin',
      'file:cifar-10-batches-bin/test_batch.bin',
      'file:cifar-10-batches-bin/batches.meta.txt',
      'file:cifar-10-batches-bin/readme.html',
      `file:${expected.cifar10.longMember}`,
    ]);
    const byName = new Map(entries.map((e) => [e.name, e.bytes]));
    expect(byName.get('cifar-10-batches-bin/data_batch_1.bin')).toEqual(fixture('cifar10/cifar-10-batches-bin/data_batch_1.bin'));
    expect(new TextDecoder().decode(byName.get('cifar-10-batches-bin/readme.html'))).toBe('<p>tiny CIFAR-10 fixture</p>\n');
  });
  it('reads GNU long names (type L)', () => {
    const names = readTar(cifar100Tar()).map((e) => e.name);
    expect(names).toContain('cifar-100-binary/' + 'very-long-'.repeat(12) + 'readme.txt');
    expect(names).toContain('cifar-100-binary/train.bin');
    expect(readTar(cifar100Tar()).find((e) => e.name.endsWith('test.bin'))!.bytes).toEqual(fixture('cifar100/cifar-100-binary/test.bin'));
  });
  it('recognises tar headers', () => {
    expect(looksLikeTar(cifar10Tar())).toBe(true);
    expect(looksLikeTar(new Uint8Array(512))).toBe(false);
    expect(looksLikeTar(fixture('cifar10/cifar-10-batches-bin/data_batch_1.bin'))).toBe(false);
  });
  it('an empty archive (just the end marker) has no entries', () => {
    expect(readTar(new Uint8Array(1024))).toEqual([]);
  });
  it('errors: not a tar, corrupt header, truncated member', () => {
    expect(() => readTar(fixture('cifar10/cifar-10-batches-bin/data_batch_1.bin'), 'x.tar')).toThrow(
      'x.tar: not a tar archive (the first 512-byte block is not a valid tar header)',
    );
    const t = cifar10Tar();
    // corrupt the header of data_batch_1.bin: find it by name
    const at = findHeader(t, 'cifar-10-batches-bin/data_batch_1.bin');
    const bad = t.slice();
    bad[at + 10] ^= 0x01;
    expect(() => readTar(bad)).toThrow(`corrupt tar archive: bad header checksum at byte ${at.toLocaleString('en-US')}`);
    expect(() => readTar(t.subarray(0, at + 512 + 100))).toThrow(
      'truncated tar archive: member "cifar-10-batches-bin/data_batch_1.bin" declares 9,219 bytes but only 100 bytes remain',
    );
  });
});

/** Offset of the 512-byte header whose name field is `name` (ustar prefix/name split handled by searching the base). */
function findHeader(tar: Uint8Array, name: string): number {
  const base = name.slice(name.lastIndexOf('/') + 1);
  for (let at = 0; at + 512 <= tar.length; at += 512) {
    const field = new TextDecoder().decode(tar.subarray(at, at + 100)).replace(/\0.*$/s, '');
    if (field === name || field === base) return at;
  }
  throw new Error(`no header for ${name}`);
}
