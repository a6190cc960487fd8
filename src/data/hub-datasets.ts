/**
 * Datasets the visitor may ask for from the Hugging Face hub's dataset files, nothing fetched unless asked: CIFAR-100
 * as the `uoft-cs/cifar100` repository holds it (two parquet files, read by ./parsers/parquet-cifar.ts). The size comes
 * first — HEAD requests (the hub answers a large file with a redirect whose `x-linked-size` is its size), or the
 * dataset card's listed total where the hub cannot be asked — then the download, with byte progress.
 */
import { fetchWithProgress, type ProgressFn } from './loaded';
import type { NamedFile } from './parsers';

export interface HubDataset {
  id: 'cifar100';
  name: string;
  /** the dataset repository, and the revision its files are read at */
  repo: string;
  revision: string;
  /** files in the repository, train then test */
  files: string[];
  /** the dataset card's `download_size` (bytes): shown before the hub is asked */
  listedBytes: number;
  /** where the images come from and under which terms */
  source: string;
}

export const HUB_CIFAR100: HubDataset = {
  id: 'cifar100',
  name: 'CIFAR-100',
  repo: 'uoft-cs/cifar100',
  revision: 'main',
  files: ['cifar100/train-00000-of-00001.parquet', 'cifar100/test-00000-of-00001.parquet'],
  listedBytes: 142_291_368,
  source:
    'CIFAR-100 (Krizhevsky, 2009), 50,000 training and 10,000 test images, as the Hugging Face hub’s uoft-cs/cifar100 parquet files (the dataset card lists its licence as unknown; the images are the CIFAR authors’).',
};

export const HUB_DATASETS_HOST = 'https://huggingface.co/';

/** The URL of a file of a hub dataset at its revision. */
export function hubFileUrl(d: HubDataset, file: string, host = HUB_DATASETS_HOST): string {
  return `${host}datasets/${d.repo}/resolve/${d.revision}/${file}`;
}

/** One file's size before a download: bytes, or null when the server does not say. */
export interface HubFileSize {
  file: string;
  url: string;
  bytes: number | null;
}

/** The sizes of a hub dataset's files, by HEAD requests only (nothing downloaded). A missing file or an unreachable host throws. */
export async function hubDatasetSizes(d: HubDataset, opts: { fetch?: typeof fetch; host?: string } = {}): Promise<HubFileSize[]> {
  const f = opts.fetch ?? fetch;
  const out: HubFileSize[] = [];
  for (const file of d.files) {
    const url = hubFileUrl(d, file, opts.host);
    let res: Response;
    try {
      res = await f(url, { method: 'HEAD', redirect: 'follow' });
    } catch (e) {
      throw new Error(`Could not reach ${url} (${(e as Error).message}): you seem to be offline, or the hub is unreachable from here.`);
    }
    if (!res.ok) throw new Error(`${d.name}'s file ${file} was not found at ${url} (HTTP ${res.status}).`);
    const linked = Number(res.headers.get('x-linked-size'));
    const length = Number(res.headers.get('content-length'));
    out.push({ file, url, bytes: linked > 0 ? linked : length > 0 ? length : null });
  }
  return out;
}

/** Download a hub dataset's files (byte progress over all of them) as the named files the parsers read. */
export async function downloadHubDataset(
  d: HubDataset,
  signal: AbortSignal,
  report: ProgressFn,
  opts: { sizes?: HubFileSize[]; host?: string } = {},
): Promise<NamedFile[]> {
  const expected = opts.sizes?.reduce((s, x) => s + (x.bytes ?? 0), 0) || d.listedBytes;
  const files: NamedFile[] = [];
  let before = 0;
  for (const file of d.files) {
    const url = hubFileUrl(d, file, opts.host);
    const name = file.slice(file.lastIndexOf('/') + 1);
    const size = opts.sizes?.find((s) => s.file === file)?.bytes ?? undefined;
    const bytes = await fetchWithProgress(url, signal, size, (n) =>
      report({
        phase: 'download',
        file: name,
        loaded: n,
        total: size,
        bytesDone: before + n,
        bytesTotal: expected,
        fraction: Math.min(1, (before + n) / expected),
      }),
    );
    before += bytes.length;
    files.push({ name, bytes });
  }
  return files;
}
