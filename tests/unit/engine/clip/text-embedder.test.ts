/**
 * The CLIP text embedder on the tiny fixture (tests/fixtures/clip-tiny, made by scripts/make-clip-fixture.mjs),
 * through the real transformers.js loading path, in Node (onnxruntime-node), offline. The "mirror" cases use a
 * throw-away HTTP server on 127.0.0.1; the "hub" cases get a fetch that fails, so nothing leaves the machine.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ort from 'onnxruntime-node';
import {
  CLIP_MODELS,
  ClipLoadError,
  createTextEmbedder,
  ensureEos,
  onnxFileFor,
  requiredFiles,
  resolveLocation,
  textEmbedderDownloadSizes,
  type ClipProgress,
  type EmbedderOptions,
  type TextEmbedder,
} from '../../../../src/engine/clip/text-embedder';

const FIXTURES = resolve('tests/fixtures');
const FIXTURE = join(FIXTURES, 'clip-tiny');
const local = (over: Partial<EmbedderOptions> = {}): EmbedderOptions => ({
  modelId: 'clip-tiny',
  dtype: 'q8',
  device: 'cpu',
  source: { kind: 'self-hosted', path: FIXTURES },
  ...over,
});

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, k) => s + x * b[k], 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));

async function loadError(p: Promise<unknown>): Promise<ClipLoadError> {
  try {
    const e = await p;
    await (e as TextEmbedder).dispose?.();
  } catch (err) {
    expect(err).toBeInstanceOf(ClipLoadError);
    return err as ClipLoadError;
  }
  throw new Error('expected a ClipLoadError');
}

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'cil-clip-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of the fixture under tmp/<name>/ with `change` applied. */
function brokenCopy(name: string, change: (dir: string) => void): void {
  const dir = join(tmp, name);
  cpSync(FIXTURE, dir, { recursive: true });
  change(dir);
}

describe('the fixture itself', () => {
  it('is laid out as transformers.js expects and stays small', () => {
    const config = JSON.parse(readFileSync(join(FIXTURE, 'config.json'), 'utf8'));
    expect(config.model_type).toBe('clip');
    expect(config.projection_dim).toBe(16);
    expect(config.text_config.eos_token_id).toBe(config.text_config.vocab_size - 1);
    const tok = JSON.parse(readFileSync(join(FIXTURE, 'tokenizer.json'), 'utf8'));
    expect(tok.model.type).toBe('BPE');
    expect(tok.model.end_of_word_suffix).toBe('</w>');
    expect(tok.post_processor.type).toBe('RobertaProcessing');
    let total = 0;
    for (const f of [...requiredFiles('q8'), onnxFileFor('fp32'), 'special_tokens_map.json']) total += readFileSync(join(FIXTURE, f)).length;
    expect(total).toBeLessThan(400_000);
  });

  it('runs in onnxruntime-node directly and matches the reference outputs the script computed', async () => {
    const ref = JSON.parse(readFileSync(join(FIXTURE, 'reference.json'), 'utf8')) as {
      cases: { input_ids: number[]; text_embeds: number[] }[];
    };
    for (const file of [onnxFileFor('fp32'), onnxFileFor('q8')]) {
      const session = await ort.InferenceSession.create(join(FIXTURE, file));
      expect(session.inputNames).toEqual(['input_ids']);
      expect(session.outputNames).toEqual(['text_embeds', 'last_hidden_state']);
      for (const c of ref.cases) {
        const ids = new ort.Tensor('int64', BigInt64Array.from(c.input_ids.map(BigInt)), [1, c.input_ids.length]);
        const out = await session.run({ input_ids: ids });
        expect(out.text_embeds.dims).toEqual([1, 16]);
        expect(out.last_hidden_state.dims).toEqual([1, c.input_ids.length, 32]);
        const got = out.text_embeds.data as Float32Array;
        const tol = file.includes('quantized') ? 0.1 : 1e-5;
        for (let k = 0; k < 16; k++) expect(Math.abs(got[k] - c.text_embeds[k])).toBeLessThan(tol);
      }
      await session.release();
    }
  });
});

describe('createTextEmbedder on the fixture (self-hosted folder, Node cpu)', () => {
  let q8: TextEmbedder;
  let fp32: TextEmbedder;
  const progress: ClipProgress[] = [];
  beforeAll(async () => {
    q8 = await createTextEmbedder(local({ onProgress: (p) => progress.push(p) }));
    fp32 = await createTextEmbedder(local({ dtype: 'fp32' }));
  });
  afterAll(async () => {
    await q8?.dispose();
    await fp32?.dispose();
  });

  it('loads q8 and fp32, reports what ran', () => {
    expect(q8.device).toBe('cpu');
    expect(q8.dtype).toBe('q8');
    expect(q8.dim).toBe(16);
    expect(q8.notes).toEqual([]);
    expect(fp32.dtype).toBe('fp32');
    expect(fp32.dim).toBe(16);
  });

  it('reports progress for every file it reads, then ready', () => {
    const files = new Set(progress.filter((p) => p.status === 'done').map((p) => p.file));
    expect([...files].sort()).toEqual(['config.json', 'onnx/text_model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json']);
    const onnx = progress.find((p) => p.status === 'done' && p.file === 'onnx/text_model_quantized.onnx')!;
    expect(onnx.total).toBe(readFileSync(join(FIXTURE, 'onnx/text_model_quantized.onnx')).length);
    expect(progress.at(-1)!.status).toBe('ready');
  });

  it('returns unit-norm embeddings', async () => {
    for (const e of [q8, fp32]) {
      const v = await e.embed(['cat', 'a photo of a lawn mower', '', 'Émile Zola 1993!']);
      expect(v).toHaveLength(4);
      for (const row of v) {
        expect(row).toBeInstanceOf(Float32Array);
        expect(row.length).toBe(16);
        expect(Math.abs(norm(row) - 1)).toBeLessThan(1e-6);
      }
    }
  });

  it('fp32 gives the same vector for a text alone and inside a padded batch', async () => {
    const [alone] = await fp32.embed(['cat']);
    const batch = await fp32.embed(['a photo of a very large orange cat', 'cat', 'dog'], 3);
    const oneByOne = await fp32.embed(['a photo of a very large orange cat', 'cat', 'dog'], 1);
    for (let k = 0; k < 16; k++) expect(batch[1][k]).toBeCloseTo(alone[k], 6);
    for (let r = 0; r < 3; r++) for (let k = 0; k < 16; k++) expect(batch[r][k]).toBeCloseTo(oneByOne[r][k], 6);
  });

  it('q8 gives nearly the same vector alone and in a batch (dynamic quantization scales per batch)', async () => {
    const [alone] = await q8.embed(['cat']);
    const batch = await q8.embed(['a photo of a very large orange cat', 'cat', 'dog'], 3);
    expect(dot(alone, batch[1])).toBeGreaterThan(0.9999);
    for (let k = 0; k < 16; k++) expect(Math.abs(batch[1][k] - alone[k])).toBeLessThan(5e-3);
  });

  it('gives different vectors for different texts, and the tokenizer normalises case and spaces', async () => {
    const [cat, dog, catLoud, catSpaced] = await fp32.embed(['cat', 'dog', 'CAT', '  cat  ']);
    expect(dot(cat, dog)).toBeLessThan(0.999);
    for (let k = 0; k < 16; k++) {
      expect(catLoud[k]).toBe(cat[k]);
      expect(catSpaced[k]).toBe(cat[k]);
    }
  });

  it('q8 is a genuinely quantized graph: close to fp32 but not identical', async () => {
    const texts = ['cat', 'dog', 'maple_tree', 'a photo of a tiger'];
    const a = await q8.embed(texts);
    const b = await fp32.embed(texts);
    let same = true;
    for (let r = 0; r < texts.length; r++) {
      expect(dot(a[r], b[r])).toBeGreaterThan(0.98);
      if (a[r].some((x, k) => x !== b[r][k])) same = false;
    }
    expect(same).toBe(false);
  });

  it('keeps <|endoftext|> when a text is longer than 77 tokens (CLIP pools there)', async () => {
    const long = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const [x, y] = await fp32.embed([long, `${long} and more words that are cut off`]);
    for (let k = 0; k < 16; k++) expect(y[k]).toBe(x[k]);
    expect(Math.abs(norm(x) - 1)).toBeLessThan(1e-6);
  });

  it('batches of any size give the same result (fp32); empty input gives no rows', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `class ${i}`);
    const a = await fp32.embed(texts, 2);
    const b = await fp32.embed(texts);
    expect(a).toHaveLength(7);
    for (let r = 0; r < 7; r++) for (let k = 0; k < 16; k++) expect(a[r][k]).toBeCloseTo(b[r][k], 6);
    expect(await q8.embed([])).toEqual([]);
    await expect(q8.embed(['x'], 0)).rejects.toThrow(/batchSize/);
  });
});

describe('sources and devices', () => {
  it('webgpu falls back to cpu in Node and says so', async () => {
    const e = await createTextEmbedder(local({ device: 'webgpu' }));
    try {
      expect(e.requestedDevice).toBe('webgpu');
      expect(e.device).toBe('cpu');
      expect(e.notes.join(' ')).toMatch(/webgpu device failed .*ran on cpu/);
      expect((await e.embed(['cat']))[0].length).toBe(16);
    } finally {
      await e.dispose();
    }
  });

  it('wasm means cpu in Node', async () => {
    const e = await createTextEmbedder(local({ device: 'wasm' }));
    expect(e.device).toBe('cpu');
    expect(e.notes[0]).toMatch(/wasm device runs as cpu/);
    await e.dispose();
  });

  it('resolves where the files are for each source', () => {
    expect(resolveLocation('Xenova/clip-vit-base-patch32', { kind: 'hub' }).at('config.json')).toBe(
      'https://huggingface.co/Xenova/clip-vit-base-patch32/resolve/main/config.json',
    );
    expect(resolveLocation('Xenova/clip-vit-base-patch32', { kind: 'mirror', url: 'https://hf-mirror.com' }).at('onnx/text_model.onnx')).toBe(
      'https://hf-mirror.com/Xenova/clip-vit-base-patch32/resolve/main/onnx/text_model.onnx',
    );
    const tpl = resolveLocation('Xenova/clip-vit-base-patch16', { kind: 'mirror', url: 'https://example.org/weights/{model}/' });
    expect(tpl.host).toBe('https://example.org/weights/');
    expect(tpl.template).toBe('{model}/');
    expect(tpl.at('config.json')).toBe('https://example.org/weights/Xenova/clip-vit-base-patch16/config.json');
    const browser = resolveLocation('cil-lab/clip-tiny', { kind: 'self-hosted', path: '/models/' });
    expect(browser.pretrainedId).toBe('/models/cil-lab/clip-tiny');
    expect(browser.remote).toBe(false);
    expect(resolveLocation('clip', { kind: 'self-hosted', path: 'models' }).pretrainedId).toBe('./models/clip');
    expect(resolveLocation('clip', { kind: 'self-hosted', path: '/' }).pretrainedId).toBe('/clip');
  });

  it('lists the three models the app offers', () => {
    expect(CLIP_MODELS.map((m) => m.id)).toEqual(['Xenova/clip-vit-base-patch32', 'Xenova/clip-vit-base-patch16', 'Xenova/clip-vit-large-patch14']);
  });

  describe('a mirror (local HTTP server)', () => {
    let server: Server;
    let base: string;
    const requests: string[] = [];
    beforeAll(async () => {
      // Serves tests/fixtures/<model>/<file> at /<model>/resolve/main/<file>, like the hub; 404 otherwise.
      server = createServer((req, res) => {
        const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
        requests.push(path);
        const m = /^\/([\w.-]+)\/resolve\/main\/(.+)$/.exec(path);
        try {
          if (!m || m[2].includes('..')) throw new Error('no');
          const body = readFileSync(join(FIXTURES, m[1], m[2]));
          res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
          res.end(body);
        } catch {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not found');
        }
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('says the sizes of the files before downloading them (HEAD requests only)', async () => {
      const before = requests.length;
      const sizes = await textEmbedderDownloadSizes(local({ source: { kind: 'mirror', url: base } }));
      expect(sizes.map((x) => x.file)).toEqual(requiredFiles('q8'));
      for (const x of sizes) expect(x.bytes).toBe(readFileSync(join(FIXTURE, x.file)).length);
      expect(requests.length - before).toBe(sizes.length);
      const offline = await textEmbedderDownloadSizes(local({ source: { kind: 'mirror', url: base }, allowRemote: false })).catch((e) => e);
      expect(offline).toBeInstanceOf(ClipLoadError);
      expect(offline.reason).toBe('offline');
    });

    it('loads through the remote path (hub layout) into a file cache', async () => {
      const cacheDir = join(tmp, 'cache-mirror');
      const e = await createTextEmbedder(local({ dtype: 'fp32', source: { kind: 'mirror', url: base }, cacheDir }));
      try {
        expect(requests).toContain('/clip-tiny/resolve/main/onnx/text_model.onnx');
        const local32 = await createTextEmbedder(local({ dtype: 'fp32' }));
        const [a] = await e.embed(['cat']);
        const [b] = await local32.embed(['cat']);
        for (let k = 0; k < 16; k++) expect(a[k]).toBe(b[k]);
        await local32.dispose();
      } finally {
        await e.dispose();
      }
    });

    it('a missing model on the mirror is not-found, naming the URL', async () => {
      const err = await loadError(createTextEmbedder(local({ modelId: 'no-such-model', source: { kind: 'mirror', url: base }, cacheDir: join(tmp, 'c2') })));
      expect(err.reason).toBe('not-found');
      expect(err.message).toContain(`${base}no-such-model/resolve/main/`);
    });

    it('with allowRemote false nothing is requested from the mirror', async () => {
      const before = requests.length;
      const err = await loadError(createTextEmbedder(local({ source: { kind: 'mirror', url: base }, allowRemote: false })));
      expect(err.reason).toBe('offline');
      expect(err.message).toMatch(/remote downloads are switched off/);
      expect(requests.length).toBe(before);
    });

    it('an unreachable mirror is offline', async () => {
      const err = await loadError(createTextEmbedder(local({ source: { kind: 'mirror', url: 'http://127.0.0.1:9/' }, cacheDir: join(tmp, 'c3') })));
      expect(err.reason).toBe('offline');
      expect(err.message).toMatch(/^Could not download http:\/\/127\.0\.0\.1:9\/clip-tiny\/resolve\/main\//);
    });
  });
});

describe('failures are ClipLoadErrors that say what failed and how to fix it', () => {
  it('offline: a hub download that fails', async () => {
    let calls = 0;
    const err = await loadError(
      createTextEmbedder({
        modelId: 'Xenova/clip-vit-base-patch32',
        dtype: 'q8',
        device: 'cpu',
        source: { kind: 'hub' },
        cacheDir: join(tmp, 'empty-cache'),
        fetch: async () => {
          calls++;
          throw new TypeError('fetch failed');
        },
      }),
    );
    expect(calls).toBeGreaterThan(0);
    expect(err.reason).toBe('offline');
    expect(err.file).toMatch(/^https:\/\/huggingface\.co\/Xenova\/clip-vit-base-patch32\/resolve\/main\//);
    expect(err.message).toMatch(
      /^Could not download https:\/\/huggingface\.co\/Xenova\/clip-vit-base-patch32\/resolve\/main\/\S+ \(fetch failed\): you seem to be offline/,
    );
    expect(err.hint).toMatch(/--model-path DIR/);
    expect(err.hint).toMatch(/--allow-remote/);
  });

  it('offline: a hub source with allowRemote false never calls fetch', async () => {
    let calls = 0;
    const err = await loadError(
      createTextEmbedder({
        modelId: 'Xenova/clip-vit-base-patch16',
        dtype: 'q8',
        device: 'cpu',
        source: { kind: 'hub' },
        allowRemote: false,
        fetch: async () => {
          calls++;
          throw new TypeError('fetch failed');
        },
      }),
    );
    expect(calls).toBe(0);
    expect(err.reason).toBe('offline');
    expect(err.message).toBe(
      'Xenova/clip-vit-base-patch16 would be downloaded from https://huggingface.co/Xenova/clip-vit-base-patch16/resolve/main/, but remote downloads are switched off (allowRemote is false).',
    );
  });

  it('not-found: the ONNX file of the chosen dtype is missing', async () => {
    brokenCopy('no-onnx', (d) => rmSync(join(d, 'onnx/text_model_quantized.onnx')));
    const err = await loadError(createTextEmbedder(local({ modelId: 'no-onnx', source: { kind: 'self-hosted', path: tmp } })));
    expect(err.reason).toBe('not-found');
    expect(err.file).toBe('onnx/text_model_quantized.onnx');
    expect(err.message).toBe(`The model file onnx/text_model_quantized.onnx was not found at ${tmp}/no-onnx/onnx/text_model_quantized.onnx.`);
    expect(err.hint).toMatch(/config\.json, tokenizer\.json, tokenizer_config\.json, onnx\/text_model_quantized\.onnx/);
    // fp32 from the same folder still loads: only the q8 file is missing
    const e = await createTextEmbedder(local({ modelId: 'no-onnx', dtype: 'fp32', source: { kind: 'self-hosted', path: tmp } }));
    await e.dispose();
  });

  it('not-found: tokenizer_config.json or tokenizer.json is missing', async () => {
    brokenCopy('no-tokcfg', (d) => rmSync(join(d, 'tokenizer_config.json')));
    brokenCopy('no-tok', (d) => rmSync(join(d, 'tokenizer.json')));
    const a = await loadError(createTextEmbedder(local({ modelId: 'no-tokcfg', source: { kind: 'self-hosted', path: tmp } })));
    expect(a.reason).toBe('not-found');
    expect(a.file).toBe('tokenizer_config.json');
    expect(a.message).toContain(`${tmp}/no-tokcfg/tokenizer_config.json`);
    const b = await loadError(createTextEmbedder(local({ modelId: 'no-tok', source: { kind: 'self-hosted', path: tmp } })));
    expect(b.reason).toBe('not-found');
    expect(b.file).toBe('tokenizer.json');
  });

  it('bad-model: a corrupt .onnx', async () => {
    brokenCopy('bad-onnx', (d) => writeFileSync(join(d, 'onnx/text_model.onnx'), '<!doctype html><title>404</title>'));
    const err = await loadError(createTextEmbedder(local({ modelId: 'bad-onnx', dtype: 'fp32', source: { kind: 'self-hosted', path: tmp } })));
    expect(err.reason).toBe('bad-model');
    expect(err.file).toBe('onnx/text_model.onnx');
    expect(err.message).toMatch(new RegExp(`^The ONNX model ${tmp}/bad-onnx/onnx/text_model\\.onnx could not be loaded \\(.*Protobuf parsing failed`));
    expect(err.hint).toMatch(/Download the file again/);
  });

  it('bad-model: a truncated .onnx and a broken config.json', async () => {
    brokenCopy('cut-onnx', (d) => {
      const f = join(d, 'onnx/text_model_quantized.onnx');
      writeFileSync(f, readFileSync(f).subarray(0, 10_000));
    });
    brokenCopy('bad-config', (d) => writeFileSync(join(d, 'config.json'), '{"model_type": "clip",'));
    const a = await loadError(createTextEmbedder(local({ modelId: 'cut-onnx', source: { kind: 'self-hosted', path: tmp } })));
    expect(a.reason).toBe('bad-model');
    expect(a.file).toBe('onnx/text_model_quantized.onnx');
    const b = await loadError(createTextEmbedder(local({ modelId: 'bad-config', source: { kind: 'self-hosted', path: tmp } })));
    expect(b.reason).toBe('bad-model');
    expect(b.file).toBe('config.json');
    expect(b.message).toMatch(/config\.json at .*bad-config\/ is not valid JSON/);
  });

  it('bad-model: an ONNX graph that is not a CLIP text model', async () => {
    brokenCopy('wrong-graph', (d) => {
      // A valid ONNX model with other input/output names: y = Identity(x).
      const bytes = readFileSync(join(d, 'onnx/text_model.onnx'));
      const patched = Buffer.from(bytes.toString('latin1').replaceAll('text_embeds', 'TEXT_EMBEDS'), 'latin1');
      writeFileSync(join(d, 'onnx/text_model.onnx'), patched);
    });
    const err = await loadError(createTextEmbedder(local({ modelId: 'wrong-graph', dtype: 'fp32', source: { kind: 'self-hosted', path: tmp } })));
    expect(err.reason).toBe('bad-model');
    expect(err.message).toMatch(/is not a CLIP text model with projection: it takes \[input_ids\] and gives \[TEXT_EMBEDS, last_hidden_state\]/);
  });

  it('bad options are rejected before anything loads', async () => {
    await expect(createTextEmbedder(local({ dtype: 'fp16' as never }))).rejects.toThrow(new TypeError('Unknown dtype "fp16": use q8 or fp32.'));
    await expect(createTextEmbedder(local({ device: 'gpu' as never }))).rejects.toThrow(TypeError);
    const mirror = await loadError(createTextEmbedder(local({ source: { kind: 'mirror', url: 'ftp://x' } })));
    expect(mirror.reason).toBe('not-found');
    expect(mirror.message).toBe('The mirror URL "ftp://x" is not an http(s) URL.');
    expect(mirror.hint).toMatch(/hf-mirror\.com/);
    expect((await loadError(createTextEmbedder(local({ modelId: ' ' })))).message).toBe('No model id was given.');
    expect((await loadError(createTextEmbedder(local({ source: { kind: 'self-hosted', path: ' ' } })))).message).toBe('The self-hosted source has no folder.');
  });
});

describe('ensureEos', () => {
  it('puts <|endoftext|> in the last slot of rows that lost it to truncation', () => {
    const ids = BigInt64Array.from([5n, 1n, 2n, 3n, 5n, 4n, 9n, 9n, 5n, 6n, 7n, 8n]);
    expect(ensureEos(ids, 3, 4, 9)).toBe(2);
    expect([...ids].map(Number)).toEqual([5, 1, 2, 9, 5, 4, 9, 9, 5, 6, 7, 9]);
    const plain = [1, 2, 3, 7];
    expect(ensureEos(plain, 1, 4, 7)).toBe(0);
  });
});
