/**
 * What a model's download button says before anything downloads (download.ts downloadSizes, the text side's
 * clipDownloadSize): HEAD requests only, files the browser keeps already count 0 and ask nothing (so a model
 * downloaded before needs no network), and a failure is the same LoadFailure a failed load gives. The fetch is a
 * stub: nothing leaves the machine.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadSizes, loadContext, totalDownload, type KeptFiles } from '../../../../src/engine/clip/download';
import { requiredFiles, resolveLocation } from '../../../../src/engine/clip/text-embedder';
import { clipDownloadSize } from '../../../../src/services/embed-client';

const hints = { modelId: 'org/m', files: requiredFiles('q8'), alternative: { node: '', browser: '' } };
const SIZES: Record<string, number> = {
  'config.json': 500,
  'tokenizer.json': 2_000,
  'tokenizer_config.json': 300,
  'onnx/text_model_quantized.onnx': 64_000_000,
};

/** A server that answers HEAD requests with each file's size, and records them. */
function stubServer() {
  const asked: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    asked.push(`${init?.method ?? 'GET'} ${url}`);
    const file = Object.keys(SIZES).find((f) => url.endsWith(`/${f}`));
    return file ? new Response(null, { status: 200, headers: { 'content-length': String(SIZES[file]) } }) : new Response(null, { status: 404 });
  }) as typeof globalThis.fetch;
  return { asked, fetch };
}

afterEach(() => vi.unstubAllGlobals());

describe('downloadSizes', () => {
  const loc = resolveLocation('org/m', { kind: 'mirror', url: 'https://mirror.example/' });

  it('asks each file with a HEAD request and adds them up', async () => {
    const { asked, fetch } = stubServer();
    const sizes = await downloadSizes(loadContext(hints, loc, true, 'wasm'), requiredFiles('q8'), fetch, null);
    expect(asked).toEqual(requiredFiles('q8').map((f) => `HEAD https://mirror.example/org/m/resolve/main/${f}`));
    expect(totalDownload(sizes)).toEqual({ bytes: 64_002_800, files: requiredFiles('q8').map((file) => ({ file, bytes: SIZES[file] })) });
  });

  it('a file the browser keeps is 0 bytes and asks nothing; all kept works offline', async () => {
    const { asked, fetch } = stubServer();
    const onnx = loc.at('onnx/text_model_quantized.onnx');
    const someKept: KeptFiles = { match: async (u) => (u === onnx ? new Response('x') : undefined) };
    const sizes = await downloadSizes(loadContext(hints, loc, true, 'wasm'), requiredFiles('q8'), fetch, someKept);
    expect(sizes.find((s) => s.url === onnx)).toMatchObject({ bytes: 0, cached: true });
    expect(asked).toHaveLength(3);
    expect(totalDownload(sizes).bytes).toBe(2_800);

    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof globalThis.fetch;
    const allKept: KeptFiles = { match: async () => new Response('x') };
    expect(totalDownload(await downloadSizes(loadContext(hints, loc, true, 'wasm'), requiredFiles('q8'), offline, allKept)).bytes).toBe(0);
  });

  it('a size a server does not say leaves the total unknown', async () => {
    const fetch = (async () => new Response(null, { status: 200 })) as typeof globalThis.fetch;
    expect(totalDownload(await downloadSizes(loadContext(hints, loc, true, 'wasm'), ['config.json'], fetch, null)).bytes).toBeNull();
  });
});

describe('clipDownloadSize (the CLIP text panel’s button)', () => {
  const req = { modelId: 'org/m', dtype: 'q8' as const, device: 'wasm' as const, source: { kind: 'mirror' as const, url: 'https://mirror.example/' } };

  it('says the text model’s download (its tokenizer, config and ONNX file of the precision)', async () => {
    const { asked, fetch } = stubServer();
    vi.stubGlobal('fetch', fetch);
    const out = await clipDownloadSize(req);
    expect(out).toEqual({ ok: true, size: expect.objectContaining({ bytes: 64_002_800 }) });
    expect(asked.every((a) => a.startsWith('HEAD '))).toBe(true);
    const fp32 = await clipDownloadSize({ ...req, dtype: 'fp32' });
    expect(fp32.ok).toBe(false); // the stub has no fp32 file: a missing file, named
    if (!fp32.ok) expect(fp32.error).toMatchObject({ reason: 'not-found', file: 'onnx/text_model.onnx' });
  });

  it('offline: a LoadFailure naming the URL, as a failed load gives', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const out = await clipDownloadSize({ ...req, source: { kind: 'hub' } });
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error.reason).toBe('offline');
      expect(out.error.file).toBe('https://huggingface.co/org/m/resolve/main/config.json');
      expect(out.error.hint).toContain('onnx/text_model_quantized.onnx'); // the files to copy instead
    }
  });
});
