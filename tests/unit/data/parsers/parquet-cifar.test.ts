/**
 * CIFAR-100 in the Hugging Face hub's parquet format (src/data/parsers/parquet-cifar.ts, detect.ts) on the fixture of
 * scripts/make-parquet-fixture.mjs: the pixels and labels as the script made them (SHA-256 of the RGB array before PNG
 * encoding), the split by file name, CIFAR-100's names; malformed files get one sentence.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { DataFormatError, detectFormat, parseUserFiles } from '../../../../src/data/parsers';
import { isParquet, parseCifarParquet } from '../../../../src/data/parsers/parquet-cifar';

const DIR = join('tests', 'fixtures', 'parsers', 'cifar100-parquet');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));
const read = (name: string) => new Uint8Array(readFileSync(join(DIR, `${name}-00000-of-00001.parquet`)));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('CIFAR-100 parquet files', () => {
  it('decode to the pixels and labels they were made from', async () => {
    for (const split of ['train', 'test'] as const) {
      const p = await parseCifarParquet(read(split), { fileName: `${split}.parquet` });
      expect(p.shape).toEqual([32, 32, 3]);
      expect(Array.from(p.labels)).toEqual(expected[split].fine);
      expect(Array.from(p.coarseLabels!)).toEqual(expected[split].coarse);
      expect(sha(p.images)).toBe(expected[split].sha256);
      expect(p.classNames!.slice(0, 6)).toEqual(['apple', 'aquarium_fish', 'baby', 'bear', 'beaver', 'bed']);
    }
  });

  it('are detected by their magic, split by name, and read as the user’s CIFAR-100', async () => {
    const train = { name: 'train-00000-of-00001.parquet', bytes: read('train') };
    const test = { name: 'test-00000-of-00001.parquet', bytes: read('test') };
    expect(detectFormat(train)).toEqual({ kind: 'parquet' });
    const fractions: number[] = [];
    const u = await parseUserFiles([test, train], { onProgress: (f) => fractions.push(f) });
    expect(u.format).toBe('cifar100-parquet');
    expect(u.train.labels.length).toBe(60);
    expect(u.test!.labels.length).toBe(30);
    expect(fractions.at(-1)).toBe(1);
    await expect(parseUserFiles([train, { ...train, name: 'train-copy.parquet' }])).rejects.toThrow(/two parquet files of the train split/);
  });

  it('refuse what is not CIFAR-100 in one sentence', async () => {
    const other = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'x', data: [1, 2], type: 'INT32' }] }));
    expect(isParquet(other)).toBe(true);
    await expect(parseCifarParquet(other, { fileName: 'x.parquet' })).rejects.toThrow(/expected CIFAR-100's columns img .* this file has x/);
    const badLabel = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'img', data: [{ bytes: new Uint8Array([1, 2]), path: null }] },
          { name: 'fine_label', data: [BigInt(100)] },
        ],
        schema: [
          { name: 'schema', num_children: 2 },
          { name: 'img', repetition_type: 'OPTIONAL', num_children: 2 },
          { name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
          { name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
          { name: 'fine_label', type: 'INT64', repetition_type: 'OPTIONAL' },
        ],
      }),
    );
    await expect(parseCifarParquet(badLabel)).rejects.toThrow(/row 0 has fine_label 100/);
    const cut = read('test').slice(0, 5000);
    await expect(parseCifarParquet(cut)).rejects.toBeInstanceOf(DataFormatError);
  });
});
