/**
 * Image encoders (src/engine/clip/image-encoder.ts, image-preprocess.ts) on the tiny fixtures (tests/fixtures/
 * clip-vision-tiny and dinov2-tiny, made by scripts/make-clip-vision-fixture.mjs) through the real transformers.js
 * loading path in Node (onnxruntime-node), offline, against numpy's reference outputs (tests/fixtures/clip-vision.json,
 * scripts/make-clip-vision-fixtures.py: the preprocessing and the graph written again in numpy). The mirror cases use a
 * throw-away HTTP server on 127.0.0.1.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import reference from '../../../fixtures/clip-vision.json';
import { ModelLoadError } from '../../../../src/engine/clip/download';
import {
  createImageEncoder,
  encoderDownloadSizes,
  encoderOnnxFile,
  encoderRequiredFiles,
  IMAGE_ENCODERS,
  knownEncoderBytes,
  type EncoderPrecision,
  type ImageEncoder,
  type ImageEncoderOptions,
} from '../../../../src/engine/clip/image-encoder';
import { outputSize, preprocessImages, preprocessingFromConfig, resampleCoefficients } from '../../../../src/engine/clip/image-preprocess';

const FIXTURES = resolve('tests/fixtures');
interface Case {
  name: string;
  shape: [number, number, number];
  images: number[][];
}
interface Result {
  case: string;
  pixel_values?: number[];
  pixel_values_head?: number[];
  outputs: Record<string, number[]>;
}
const ref = reference as unknown as { cases: Case[]; models: Record<string, { feature: string; dim: number; results: Result[] }> };
const imagesOf = (c: Case) => Uint8Array.from(c.images.flat());
const rowsOf = (c: Case) => c.images.map((_, i) => i);

const local = (modelId: string, over: Partial<ImageEncoderOptions> = {}): ImageEncoderOptions => ({
  modelId,
  precision: 'fp32',
  device: 'cpu',
  source: { kind: 'self-hosted', path: FIXTURES },
  ...over,
});

/** Largest |a − b| over the largest |b| (at least 1). */
function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let d = 0;
  let s = 1;
  for (let i = 0; i < b.length; i++) {
    d = Math.max(d, Math.abs(a[i] - b[i]));
    s = Math.max(s, Math.abs(b[i]));
  }
  return d / s;
}

async function loadError(p: Promise<ImageEncoder>): Promise<ModelLoadError> {
  try {
    await (await p).dispose();
  } catch (err) {
    expect(err).toBeInstanceOf(ModelLoadError);
    return err as ModelLoadError;
  }
  throw new Error('expected a ModelLoadError');
}

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'cil-vision-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the preprocessing (ours, the same in Node and every browser) equals numpy’s', () => {
  const config = JSON.parse(readFileSync(join(FIXTURES, 'clip-vision-tiny', 'preprocessor_config.json'), 'utf8'));
  const p = preprocessingFromConfig(config);
  it('reads the processor’s fields', () => {
    expect(p).toEqual({
      convertRgb: true,
      resize: { shortestEdge: 36 },
      resample: 'bicubic',
      crop: { height: 32, width: 32 },
      rescale: 1 / 255,
      mean: [0.48145466, 0.4578275, 0.40821073],
      std: [0.26862954, 0.26130258, 0.27577711],
    });
    expect(outputSize(p, 20, 30)).toEqual([32, 32]);
    expect(() => preprocessingFromConfig({ ...config, resample: 9 })).toThrow(/resample/);
    expect(() => preprocessingFromConfig({ ...config, size: { longest_edge: 3 } })).toThrow(/"size"/);
    expect(() => preprocessingFromConfig({ ...config, image_std: [1, 0, 1] })).toThrow(/divide by zero/);
  });
  it('weights of PIL’s filters sum to 1 and shrink with support scaling', () => {
    for (const [i, o] of [
      [28, 36],
      [48, 36],
      [7, 3],
    ]) {
      for (const { weights } of resampleCoefficients(i, o, 'bicubic')) expect(weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
    expect(resampleCoefficients(48, 36, 'bicubic')[10].weights.length).toBeGreaterThan(4); // antialiasing: wider than bicubic's 4 taps
  });
  for (const c of ref.cases) {
    it(`${c.name}: grey and RGB, up and down, non-square, centre crop`, () => {
      const want = ref.models['clip-vision-tiny'].results.find((r) => r.case === c.name)!.pixel_values!;
      const got = preprocessImages(imagesOf(c), c.shape, [0], p);
      expect(got.dims).toEqual([1, 3, 32, 32]);
      expect(relErr(got.data, want)).toBeLessThan(2e-6);
    });
  }
});

describe('the ViT fixture carries google/vit-base-patch16-224-in21k’s real preprocessing', () => {
  const config = JSON.parse(readFileSync(join(FIXTURES, 'vit-tiny', 'preprocessor_config.json'), 'utf8'));
  it('reads the legacy ViTFeatureExtractor fields: 224 × 224 bilinear, no crop, rescale 1/255, mean and std 0.5', () => {
    expect(config).toEqual({
      do_normalize: true,
      do_resize: true,
      feature_extractor_type: 'ViTFeatureExtractor',
      image_mean: [0.5, 0.5, 0.5],
      image_std: [0.5, 0.5, 0.5],
      resample: 2,
      size: 224,
    });
    expect(preprocessingFromConfig(config)).toEqual({
      convertRgb: true,
      resize: { height: 224, width: 224 },
      resample: 'bilinear',
      crop: null,
      rescale: 1 / 255,
      mean: [0.5, 0.5, 0.5],
      std: [0.5, 0.5, 0.5],
    });
  });
  for (const c of ref.cases) {
    it(`${c.name}: numpy’s pixel_values (first 2,000 values)`, () => {
      const want = ref.models['vit-tiny'].results.find((r) => r.case === c.name)!.pixel_values_head!;
      const got = preprocessImages(imagesOf(c), c.shape, [0], preprocessingFromConfig(config));
      expect(got.dims).toEqual([1, 3, 224, 224]);
      expect(relErr(got.data.subarray(0, want.length), want)).toBeLessThan(2e-6);
    });
  }
});

const encoders: { model: string; precisions: EncoderPrecision[]; kind: string; output: string; dim: number; modelType: string }[] = [
  { model: 'clip-vision-tiny', precisions: ['fp32', 'fp16', 'q8'], kind: 'clip-vision', output: 'image_embeds', dim: 16, modelType: 'clip' },
  { model: 'dinov2-tiny', precisions: ['fp32', 'q8'], kind: 'auto', output: 'pooler_output', dim: 24, modelType: 'dinov2' },
  // a ViT's feature is its final-LayerNorm [CLS] token, not HF's pooler (dense + tanh), which the fixture also outputs
  { model: 'vit-tiny', precisions: ['fp32', 'fp16', 'q8'], kind: 'auto', output: 'last_hidden_state[:, 0]', dim: 16, modelType: 'vit' },
];
const TOLERANCE: Record<EncoderPrecision, number> = { fp32: 1e-5, fp16: 1e-4, q8: 1e-4 };

for (const e of encoders) {
  describe(`createImageEncoder on ${e.model} (self-hosted folder, Node cpu)`, () => {
    for (const precision of e.precisions) {
      it(`${precision}: loads with the right class and gives numpy’s features for every case`, async () => {
        const enc = await createImageEncoder(local(e.model, { precision }));
        try {
          expect(enc.kind).toBe(e.kind);
          expect(enc.modelType).toBe(e.modelType);
          expect(enc.output).toBe(e.output);
          expect(enc.dim).toBe(e.dim);
          expect(enc.device).toBe('cpu');
          expect(enc.notes).toEqual([]);
          for (const c of ref.cases) {
            const want = ref.models[e.model].results.find((r) => r.case === c.name)!.outputs[precision];
            // the whole case in one batch, as numpy computed it (q8 quantizes activations per batch)
            const got = await enc.encode(imagesOf(c), c.shape, rowsOf(c), { batchSize: 8 });
            expect(relErr(got, want), `${c.name}`).toBeLessThan(TOLERANCE[precision]);
          }
        } finally {
          await enc.dispose();
        }
      });
    }
  });
}

describe('the encoders offered by name say their size before anything downloads', () => {
  it('ViT-B/16 IN21K, DINOv2-small and MobileCLIP-S1 beside CLIP, each with a listed size per precision', () => {
    const ids = IMAGE_ENCODERS.map((e) => e.id);
    expect(ids).toEqual(
      expect.arrayContaining(['Xenova/clip-vit-base-patch32', 'Xenova/vit-base-patch16-224-in21k', 'Xenova/dinov2-small', 'Xenova/mobileclip_s1']),
    );
    for (const e of IMAGE_ENCODERS) {
      // q8 about a quarter of fp32, fp16 about half: the listing is consistent
      expect(e.sizes.q8 / e.sizes.fp32).toBeGreaterThan(0.2);
      expect(e.sizes.q8 / e.sizes.fp32).toBeLessThan(0.3);
      expect(Math.abs(e.sizes.fp16 / e.sizes.fp32 - 0.5)).toBeLessThan(0.02);
    }
    expect(knownEncoderBytes('Xenova/vit-base-patch16-224-in21k', 'fp32')).toBe(343e6);
    expect(knownEncoderBytes('Xenova/vit-base-patch16-224-in21k', 'q8')).toBe(87.5e6);
    expect(knownEncoderBytes('someone/else', 'q8')).toBeNull();
  });
});

describe('batches', () => {
  it('fp32 gives an image the same vector in any batch, reports progress, and refuses use after dispose', async () => {
    const enc = await createImageEncoder(local('clip-vision-tiny'));
    const c = ref.cases[0];
    const done: number[] = [];
    const one = await enc.encode(imagesOf(c), c.shape, [2, 0, 1], { batchSize: 1, onBatch: (n) => done.push(n) });
    const all = await enc.encode(imagesOf(c), c.shape, [2, 0, 1], { batchSize: 3 });
    expect(Array.from(one)).toEqual(Array.from(all));
    expect(done).toEqual([1, 2, 3]);
    await enc.dispose();
    await expect(enc.encode(imagesOf(c), c.shape, [0])).rejects.toThrow(/disposed/);
  });
});

describe('load failures are ModelLoadErrors with the file and a hint', () => {
  it('a missing model folder, and a text-only model (no preprocessor_config.json)', async () => {
    const missing = await loadError(createImageEncoder(local('no-such-encoder')));
    expect(missing.reason).toBe('not-found');
    expect(missing.file).toBe('preprocessor_config.json');
    expect(missing.hint).toMatch(/--model-path/);
    const text = await loadError(createImageEncoder(local('clip-tiny')));
    expect(text.reason).toBe('not-found');
    expect(text.file).toBe('preprocessor_config.json');
  });
  it('a precision whose file is missing, a broken preprocessor config, and a model that is no image encoder', async () => {
    const noFp16 = await loadError(createImageEncoder(local('dinov2-tiny', { precision: 'fp16' })));
    expect(noFp16.reason).toBe('not-found');
    expect(noFp16.file).toBe(encoderOnnxFile('auto', 'fp16'));
    cpSync(join(FIXTURES, 'clip-vision-tiny'), join(tmp, 'bad-pre'), { recursive: true });
    writeFileSync(join(tmp, 'bad-pre', 'preprocessor_config.json'), JSON.stringify({ size: { longest_edge: 3 }, do_resize: true }));
    const bad = await loadError(createImageEncoder(local('bad-pre', { source: { kind: 'self-hosted', path: tmp } })));
    expect(bad.reason).toBe('bad-model');
    expect(bad.message).toMatch(/"size"/);
    cpSync(join(FIXTURES, 'clip-vision-tiny'), join(tmp, 'text-as-vision'), { recursive: true });
    cpSync(join(FIXTURES, 'clip-tiny', 'onnx', 'text_model.onnx'), join(tmp, 'text-as-vision', 'onnx', 'vision_model.onnx'));
    const wrong = await loadError(createImageEncoder(local('text-as-vision', { source: { kind: 'self-hosted', path: tmp } })));
    expect(wrong.reason).toBe('bad-model');
    expect(wrong.message).toMatch(/not an image encoder.*input_ids/);
  });
  it('nothing is downloaded when remote downloads are off; bad options are refused before loading', async () => {
    let fetched = 0;
    const fetch = (async () => {
      fetched++;
      throw new Error('no network in tests');
    }) as unknown as typeof globalThis.fetch;
    const hub = await loadError(createImageEncoder(local('Xenova/clip-vit-base-patch32', { source: { kind: 'hub' }, allowRemote: false, fetch })));
    expect(hub.reason).toBe('offline');
    expect(fetched).toBe(0);
    await expect(createImageEncoder(local('x', { precision: 'int4' as EncoderPrecision }))).rejects.toThrow(TypeError);
    await expect(createImageEncoder(local(' '))).rejects.toThrow(/No model id/);
    await expect(createImageEncoder(local('x', { source: { kind: 'mirror', url: 'ftp://x' } }))).rejects.toThrow(/not an http/);
  });
});

describe('from a mirror (a local HTTP server in the hub layout)', () => {
  let server: Server;
  let base: string;
  const requests: string[] = [];
  beforeAll(async () => {
    // Serves tests/fixtures/<model>/<file> at /<model>/resolve/<revision>/<file>, like the hub; 404 otherwise.
    server = createServer((req, res) => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      requests.push(`${req.method} ${path}`);
      const m = /^\/([\w.-]+)\/resolve\/([\w.-]+)\/(.+)$/.exec(path);
      try {
        if (!m || m[3].includes('..')) throw new Error('no');
        const body = readFileSync(join(FIXTURES, m[1], m[3]));
        res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
        res.end(req.method === 'HEAD' ? undefined : body);
      } catch {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('says the sizes before downloading anything (HEAD only), then loads at the asked revision', async () => {
    const opts = local('clip-vision-tiny', { precision: 'q8', revision: 'v1', source: { kind: 'mirror', url: base }, cacheDir: join(tmp, 'cache') });
    const sizes = await encoderDownloadSizes(opts);
    expect(sizes.map((s) => s.file)).toEqual(encoderRequiredFiles('clip-vision', 'q8'));
    for (const s of sizes) expect(s.bytes).toBe(readFileSync(join(FIXTURES, 'clip-vision-tiny', s.file)).length);
    expect(requests.every((r) => r.startsWith('HEAD /clip-vision-tiny/resolve/v1/'))).toBe(true);
    const enc = await createImageEncoder(opts);
    try {
      expect(requests).toContain('GET /clip-vision-tiny/resolve/v1/onnx/vision_model_quantized.onnx');
      const c = ref.cases[1];
      const want = ref.models['clip-vision-tiny'].results.find((r) => r.case === c.name)!.outputs.q8;
      expect(relErr(await enc.encode(imagesOf(c), c.shape, rowsOf(c)), want)).toBeLessThan(TOLERANCE.q8);
    } finally {
      await enc.dispose();
    }
  });

  it('a missing file is not-found in the size check already', async () => {
    const err = await encoderDownloadSizes(local('dinov2-tiny', { precision: 'fp16', source: { kind: 'mirror', url: base } })).catch((e) => e);
    expect(err).toBeInstanceOf(ModelLoadError);
    expect(err.reason).toBe('not-found');
    expect(err.file).toBe('onnx/model_fp16.onnx');
  });
});
