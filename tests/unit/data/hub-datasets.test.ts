/**
 * CIFAR-100 from the hub's dataset files (src/data/hub-datasets.ts), against a throw-away HTTP server on 127.0.0.1 in
 * the hub's layout serving the parquet fixture: the size is asked by HEAD only (x-linked-size, as the hub answers),
 * then the download reports its bytes and the files parse as the user's CIFAR-100. The button's words say the listed
 * size before anything is asked.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadHubDataset, HUB_CIFAR100, hubDatasetSizes, hubFileUrl } from '../../../src/data/hub-datasets';
import type { LoadProgress } from '../../../src/data/loaded';
import { parseUserFiles } from '../../../src/data/parsers';
import { hubButtonText } from '../../../src/ui/data/data-loader.svelte';

const DIR = join('tests', 'fixtures', 'parsers', 'cifar100-parquet');
let server: Server;
let host: string;
const requests: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(`${req.method} ${path}`);
    const m = /^\/datasets\/uoft-cs\/cifar100\/resolve\/main\/cifar100\/((train|test)-00000-of-00001\.parquet)$/.exec(path);
    if (!m) {
      res.writeHead(404);
      res.end();
      return;
    }
    const body = readFileSync(join(DIR, m[1]));
    // the hub answers HEAD of a large file with its size in x-linked-size
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'x-linked-size': String(body.length),
      'content-length': req.method === 'HEAD' ? '0' : body.length,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('CIFAR-100 from the hub', () => {
  it('says the listed size first, asks the real one by HEAD only, then downloads with progress and parses', async () => {
    expect(hubButtonText(null)).toBe('CIFAR-100 from the Hugging Face hub (about 142.3 MB): check the download size');
    expect(hubFileUrl(HUB_CIFAR100, HUB_CIFAR100.files[0])).toBe(
      'https://huggingface.co/datasets/uoft-cs/cifar100/resolve/main/cifar100/train-00000-of-00001.parquet',
    );
    const sizes = await hubDatasetSizes(HUB_CIFAR100, { host });
    const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));
    expect(sizes.map((s) => s.bytes)).toEqual([expected.train.bytes, expected.test.bytes]);
    expect(requests.every((r) => r.startsWith('HEAD '))).toBe(true);
    const total = expected.train.bytes + expected.test.bytes;
    expect(hubButtonText({ bytes: total, sizes })).toBe(`Download ${(total / 1e6).toFixed(1)} MB and load CIFAR-100`);
    const progress: LoadProgress[] = [];
    const files = await downloadHubDataset(HUB_CIFAR100, new AbortController().signal, (p) => progress.push(p), { sizes, host });
    expect(files.map((f) => f.name)).toEqual(['train-00000-of-00001.parquet', 'test-00000-of-00001.parquet']);
    expect(progress.at(-1)).toMatchObject({ phase: 'download', bytesDone: total, bytesTotal: total, fraction: 1 });
    const u = await parseUserFiles(files);
    expect(u.format).toBe('cifar100-parquet');
    expect([u.train.labels.length, u.test!.labels.length]).toEqual([60, 30]);
  });

  it('an unreachable hub or a missing file is one sentence', async () => {
    const offline = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    await expect(hubDatasetSizes(HUB_CIFAR100, { fetch: offline })).rejects.toThrow(/you seem to be offline, or the hub is unreachable/);
    await expect(hubDatasetSizes({ ...HUB_CIFAR100, files: ['cifar100/nope.parquet'] }, { host })).rejects.toThrow(/was not found at .* \(HTTP 404\)/);
    expect(hubButtonText({ error: 'x' })).toBe('Check again');
  });
});
