#!/usr/bin/env node
// Writes three tiny image encoders laid out exactly like transformers.js model repos, so the real loading path of
// src/engine/clip/image-encoder.ts — AutoImageProcessor's preprocessor_config.json, then
// CLIPVisionModelWithProjection (model_type "clip") or AutoModel (any other) .from_pretrained → onnxruntime — runs in
// tests without the network:
//
//   tests/fixtures/clip-vision-tiny/   model_type "clip": onnx/vision_model{,_quantized,_fp16}.onnx, pixel_values →
//                                      image_embeds [batch, 16] (+ last_hidden_state); CLIP's preprocessing
//                                      (shortest edge 36, bicubic, centre crop 32, CLIP's mean/std)
//   tests/fixtures/dinov2-tiny/        model_type "dinov2": onnx/model{,_quantized}.onnx, pixel_values →
//                                      last_hidden_state [batch, 16, 24] and pooler_output [batch, 24];
//                                      DINOv2's preprocessing (shortest edge 40, bicubic, centre crop 32, ImageNet
//                                      mean/std)
//   tests/fixtures/vit-tiny/           model_type "vit": onnx/model{,_quantized,_fp16}.onnx, pixel_values [batch, 3, 224,
//                                      224] → last_hidden_state [batch, 197, 16] and pooler_output [batch, 16]; the REAL
//                                      preprocessing config of google/vit-base-patch16-224-in21k (and of its
//                                      transformers.js export Xenova/vit-base-patch16-224-in21k): the legacy
//                                      ViTFeatureExtractor fields {do_normalize, do_resize, image_mean 0.5, image_std
//                                      0.5, resample 2 (bilinear), size 224}, as the hub's file holds them (printed by
//                                      Hugging Face's ViT fine-tuning blog post). No centre crop; rescale 1/255 is
//                                      ViTImageProcessor's default.
//
// The ViT fixture keeps ViT's token layout (vitEncoder below). The graph of the CLIP and DINOv2 fixtures (opset 14, protobuf by hand in scripts/lib/onnx-proto.mjs), a ViT in miniature:
//   pixel_values float32 [batch, 3, 32, 32]
//   patches = Reshape/Transpose into [batch, T, 3·P·P] (row-major patches, each channels × rows × columns: what a
//             Conv with kernel = stride = P multiplies)
//   x = patches · W_patch + pos_emb                              [batch, T, H]
//   last_hidden_state = tanh(x · W1 + b1)                        [batch, T, H]
//   pooled = mean over the T tokens                              [batch, H]
//   clip: image_embeds = pooled · W_proj (NOT normalised, like CLIP)     dinov2: pooler_output = pooled
// Precisions: fp32; q8 genuinely quantized as onnxruntime's quantize_dynamic does it (int8 weights with reduce_range,
// DynamicQuantizeLinear + MatMulInteger for every MatMul); fp16 (clip only): float16 weights cast to float32 inside
// the graph, float32 inputs and outputs (keep_io_types, as the Xenova fp16 exports).
//
// Weights come from a seeded PRNG; the output is byte-for-byte deterministic. The reference outputs are computed
// independently, by numpy from these files: scripts/make-clip-vision-fixtures.py → tests/fixtures/clip-vision.json.
// Usage: node scripts/make-clip-vision-fixture.mjs
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLOAT, attrInt, attrInts, f16, f32, gaussian, i64, model, mulberry32, node, qMatMul, quantSym, s8, valueInfo } from './lib/onnx-proto.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const IMAGE = 32;

function encoder({ name, seed, patch, hidden, projection, modelType, files, outputs, config, preprocessor }) {
  const { randn } = gaussian(mulberry32(seed));
  const grid = IMAGE / patch;
  const T = grid * grid;
  const D = 3 * patch * patch;
  const W = {
    patch: randn(D * hidden, 1 / Math.sqrt(D)),
    pos: randn(T * hidden, 0.2),
    w1: randn(hidden * hidden, 1.5 / Math.sqrt(hidden)),
    b1: randn(hidden, 0.1),
    proj: projection ? randn(hidden * projection, 1 / Math.sqrt(hidden)) : null,
  };
  const front = [
    node('Reshape', ['pixel_values', 'shape6'], ['p6']),
    node('Transpose', ['p6'], ['p6t'], [attrInts('perm', [0, 2, 4, 1, 3, 5])]),
    node('Reshape', ['p6t', 'shape3'], ['patches']),
  ];
  const consts = [
    i64('shape6', [6], [-1, 3, grid, patch, grid, patch]),
    i64('shape3', [3], [-1, T, D]),
    f32('pos_emb', [T, hidden], W.pos),
    f32('b1', [hidden], W.b1),
  ];
  const tail = (mm) => [
    ...mm('patches', 'w_patch', 'x_patch'),
    node('Add', ['x_patch', 'pos_emb'], ['x']),
    ...mm('x', 'w1', 'h_pre'),
    node('Add', ['h_pre', 'b1'], ['h_bias']),
    node('Tanh', ['h_bias'], ['last_hidden_state']),
    node('ReduceMean', ['last_hidden_state'], [projection ? 'pooled' : 'pooler_output'], [attrInts('axes', [1]), attrInt('keepdims', 0)]),
    ...(projection ? mm('pooled', 'w_proj', 'image_embeds') : []),
  ];
  const weights = [['w_patch', [D, hidden], W.patch], ['w1', [hidden, hidden], W.w1], ...(projection ? [['w_proj', [hidden, projection], W.proj]] : [])];
  const io = [[valueInfo('pixel_values', FLOAT, ['batch_size', 3, IMAGE, IMAGE])], outputs.map(([n, dims]) => valueInfo(n, FLOAT, dims))];
  const doc = `Tiny random ${modelType}-style image encoder made by scripts/make-clip-vision-fixture.mjs; not a real model.`;
  const build = (kind) => {
    if (kind === 'fp32')
      return model(
        [...front, ...tail((a, w, o) => [node('MatMul', [a, w], [o])])],
        [...consts, ...weights.map(([n, d, v]) => f32(n, d, v))],
        `${name}_fp32`,
        doc,
        ...io,
        'cil-lab make-clip-vision-fixture.mjs',
      );
    if (kind === 'fp16')
      return model(
        [...front, ...weights.map(([n]) => node('Cast', [`${n}_h`], [n], [attrInt('to', FLOAT)])), ...tail((a, w, o) => [node('MatMul', [a, w], [o])])],
        [...consts, ...weights.map(([n, d, v]) => f16(`${n}_h`, d, v))],
        `${name}_fp16`,
        doc,
        ...io,
        'cil-lab make-clip-vision-fixture.mjs',
      );
    const q = weights.flatMap(([n, d, v]) => {
      const { q: data, scale } = quantSym(v, 63); // reduce_range: no int16 saturation on any CPU
      return [s8(`${n}_q`, d, data), f32(`${n}_scale`, [], [scale]), s8(`${n}_zp`, [], Int8Array.of(0))];
    });
    return model([...front, ...tail(qMatMul)], [...consts, ...q], `${name}_q8`, doc, ...io, 'cil-lab make-clip-vision-fixture.mjs');
  };
  writeFolder(name, config, preprocessor, files, build, `${T} tokens of ${D} values, hidden ${hidden}`);
}

/** Writes tests/fixtures/<name>/: config.json, preprocessor_config.json and onnx/<file> of each precision; one line. */
function writeFolder(name, config, preprocessor, files, build, what) {
  const out = join(root, 'tests', 'fixtures', name);
  mkdirSync(join(out, 'onnx'), { recursive: true });
  const json = (o) => `${JSON.stringify(o, null, 2)}\n`;
  writeFileSync(join(out, 'config.json'), json(config));
  writeFileSync(join(out, 'preprocessor_config.json'), json(preprocessor));
  const written = ['config.json', 'preprocessor_config.json'];
  for (const [kind, file] of Object.entries(files)) {
    writeFileSync(join(out, 'onnx', file), build(kind));
    written.push(`onnx/${file}`);
  }
  let total = 0;
  const list = written.map((f) => {
    const size = statSync(join(out, f)).size;
    total += size;
    return `${f} ${size} B`;
  });
  console.log(`[make-clip-vision-fixture] wrote ${relative(root, out)}/ (${what}; ${(total / 1024).toFixed(1)} KB): ${list.join(', ')}`);
}

/**
 * A ViT in miniature with ViT's token layout, for model_type "vit" (transformers.js AutoModel → ViTModel), at the real
 * model's input size 224 × 224 and patch 16:
 *   patches = the 196 row-major 16×16 patches of pixel_values, each channels × rows × columns   [batch, 196, 768]
 *   x = patches · W_patch + pos                                                                    [batch, 196, H]
 *   cls = mean over the 196 tokens of x + cls_emb (uniform attention from [CLS]: it sees the image)  [batch, 1, H]
 *   h = tanh([cls; x] · W1 + b1)                                                                   [batch, 197, H]
 *   last_hidden_state = LayerNorm(h) (ε = 1e-12, HF ViT's layer_norm_eps; γ, β)                    [batch, 197, H]
 *   pooler_output = tanh(last_hidden_state[:, 0] · W_pool + b_pool) (HF ViT's pooler)              [batch, H]
 * The encoder's feature for a ViT is last_hidden_state[:, 0] (the final-LayerNorm [CLS] token, what timm's ViT hands
 * its head), not the pooler: src/engine/clip/image-encoder.ts.
 */
function vitEncoder({ name, seed, hidden }) {
  const IMG = 224;
  const P = 16;
  const g = IMG / P;
  const T = g * g;
  const D = 3 * P * P;
  const H = hidden;
  const { randn } = gaussian(mulberry32(seed));
  const W = {
    patch: randn(D * H, 1 / Math.sqrt(D)),
    pos: randn(T * H, 0.2),
    cls: randn(H, 0.2),
    w1: randn(H * H, 1.5 / Math.sqrt(H)),
    b1: randn(H, 0.1),
    gamma: Float32Array.from(randn(H, 0.1), (x) => 1 + x),
    beta: randn(H, 0.1),
    pool: randn(H * H, 1 / Math.sqrt(H)),
    bPool: randn(H, 0.1),
  };
  const front = [
    node('Reshape', ['pixel_values', 'shape6'], ['p6']),
    node('Transpose', ['p6'], ['p6t'], [attrInts('perm', [0, 2, 4, 1, 3, 5])]),
    node('Reshape', ['p6t', 'shape3'], ['patches']),
  ];
  const consts = [
    i64('shape6', [6], [-1, 3, g, P, g, P]),
    i64('shape3', [3], [-1, T, D]),
    f32('pos_emb', [T, H], W.pos),
    f32('cls_emb', [1, H], W.cls),
    f32('b1', [H], W.b1),
    f32('ln_gamma', [H], W.gamma),
    f32('ln_beta', [H], W.beta),
    f32('ln_eps', [], [1e-12]),
    f32('b_pool', [H], W.bPool),
    i64('cls_index', [], [0]),
  ];
  const tail = (mm) => [
    ...mm('patches', 'w_patch', 'x_patch'),
    node('Add', ['x_patch', 'pos_emb'], ['x']),
    node('ReduceMean', ['x'], ['x_mean'], [attrInts('axes', [1]), attrInt('keepdims', 1)]),
    node('Add', ['x_mean', 'cls_emb'], ['cls']),
    node('Concat', ['cls', 'x'], ['tokens'], [attrInt('axis', 1)]),
    ...mm('tokens', 'w1', 'h_pre'),
    node('Add', ['h_pre', 'b1'], ['h_bias']),
    node('Tanh', ['h_bias'], ['h']),
    node('ReduceMean', ['h'], ['ln_mu'], [attrInts('axes', [-1]), attrInt('keepdims', 1)]),
    node('Sub', ['h', 'ln_mu'], ['ln_d']),
    node('Mul', ['ln_d', 'ln_d'], ['ln_d2']),
    node('ReduceMean', ['ln_d2'], ['ln_var'], [attrInts('axes', [-1]), attrInt('keepdims', 1)]),
    node('Add', ['ln_var', 'ln_eps'], ['ln_var_eps']),
    node('Sqrt', ['ln_var_eps'], ['ln_sd']),
    node('Div', ['ln_d', 'ln_sd'], ['ln_norm']),
    node('Mul', ['ln_norm', 'ln_gamma'], ['ln_scaled']),
    node('Add', ['ln_scaled', 'ln_beta'], ['last_hidden_state']),
    node('Gather', ['last_hidden_state', 'cls_index'], ['cls_out'], [attrInt('axis', 1)]),
    ...mm('cls_out', 'w_pool', 'pool_pre'),
    node('Add', ['pool_pre', 'b_pool'], ['pool_bias']),
    node('Tanh', ['pool_bias'], ['pooler_output']),
  ];
  const weights = [
    ['w_patch', [D, H], W.patch],
    ['w1', [H, H], W.w1],
    ['w_pool', [H, H], W.pool],
  ];
  const io = [
    [valueInfo('pixel_values', FLOAT, ['batch_size', 3, IMG, IMG])],
    [valueInfo('last_hidden_state', FLOAT, ['batch_size', T + 1, H]), valueInfo('pooler_output', FLOAT, ['batch_size', H])],
  ];
  const doc = 'Tiny random ViT-style image encoder made by scripts/make-clip-vision-fixture.mjs; not a real ViT.';
  const producer = 'cil-lab make-clip-vision-fixture.mjs';
  const plain = (a, w, o) => [node('MatMul', [a, w], [o])];
  const build = (kind) => {
    if (kind === 'fp32')
      return model([...front, ...tail(plain)], [...consts, ...weights.map(([n, d, v]) => f32(n, d, v))], `${name}_fp32`, doc, ...io, producer);
    if (kind === 'fp16')
      return model(
        [...front, ...weights.map(([n]) => node('Cast', [`${n}_h`], [n], [attrInt('to', FLOAT)])), ...tail(plain)],
        [...consts, ...weights.map(([n, d, v]) => f16(`${n}_h`, d, v))],
        `${name}_fp16`,
        doc,
        ...io,
        producer,
      );
    const q = weights.flatMap(([n, d, v]) => {
      const { q: data, scale } = quantSym(v, 63); // reduce_range: no int16 saturation on any CPU
      return [s8(`${n}_q`, d, data), f32(`${n}_scale`, [], [scale]), s8(`${n}_zp`, [], Int8Array.of(0))];
    });
    return model([...front, ...tail(qMatMul)], [...consts, ...q], `${name}_q8`, doc, ...io, producer);
  };
  const config = {
    _name_or_path: 'cil-lab/vit-tiny',
    architectures: ['ViTModel'],
    model_type: 'vit',
    hidden_size: H,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: H,
    image_size: IMG,
    patch_size: P,
    num_channels: 3,
    layer_norm_eps: 1e-12,
    'cil-lab_fixture':
      'Tiny random ViT-architecture image encoder made by scripts/make-clip-vision-fixture.mjs; not a real ViT. Its preprocessor_config.json is the real one of google/vit-base-patch16-224-in21k.',
  };
  // google/vit-base-patch16-224-in21k's preprocessor_config.json, field for field (the legacy ViTFeatureExtractor form)
  const preprocessor = {
    do_normalize: true,
    do_resize: true,
    feature_extractor_type: 'ViTFeatureExtractor',
    image_mean: [0.5, 0.5, 0.5],
    image_std: [0.5, 0.5, 0.5],
    resample: 2,
    size: 224,
  };
  const files = { fp32: 'model.onnx', q8: 'model_quantized.onnx', fp16: 'model_fp16.onnx' };
  writeFolder(name, config, preprocessor, files, build, `${T} + 1 tokens of ${D} values, hidden ${H}`);
}
encoder({
  name: 'clip-vision-tiny',
  seed: 20240611,
  patch: 16,
  hidden: 32,
  projection: 16,
  modelType: 'clip',
  files: { fp32: 'vision_model.onnx', q8: 'vision_model_quantized.onnx', fp16: 'vision_model_fp16.onnx' },
  outputs: [
    ['image_embeds', ['batch_size', 16]],
    ['last_hidden_state', ['batch_size', 4, 32]],
  ],
  config: {
    _name_or_path: 'cil-lab/clip-vision-tiny',
    architectures: ['CLIPModel'],
    model_type: 'clip',
    projection_dim: 16,
    logit_scale_init_value: 2.6592,
    text_config: { model_type: 'clip_text_model', hidden_size: 32, projection_dim: 16 },
    vision_config: {
      model_type: 'clip_vision_model',
      hidden_size: 32,
      intermediate_size: 64,
      num_hidden_layers: 1,
      num_attention_heads: 2,
      image_size: IMAGE,
      patch_size: 16,
      projection_dim: 16,
    },
    'cil-lab_fixture': 'Tiny random CLIP-architecture vision model made by scripts/make-clip-vision-fixture.mjs; not a real CLIP.',
  },
  preprocessor: {
    crop_size: { height: IMAGE, width: IMAGE },
    do_center_crop: true,
    do_convert_rgb: true,
    do_normalize: true,
    do_rescale: true,
    do_resize: true,
    image_mean: [0.48145466, 0.4578275, 0.40821073],
    image_processor_type: 'CLIPImageProcessor',
    image_std: [0.26862954, 0.26130258, 0.27577711],
    resample: 3,
    rescale_factor: 0.00392156862745098,
    size: { shortest_edge: 36 },
  },
});

encoder({
  name: 'dinov2-tiny',
  seed: 20240612,
  patch: 8,
  hidden: 24,
  projection: 0,
  modelType: 'dinov2',
  files: { fp32: 'model.onnx', q8: 'model_quantized.onnx' },
  outputs: [
    ['last_hidden_state', ['batch_size', 16, 24]],
    ['pooler_output', ['batch_size', 24]],
  ],
  config: {
    _name_or_path: 'cil-lab/dinov2-tiny',
    architectures: ['Dinov2Model'],
    model_type: 'dinov2',
    hidden_size: 24,
    image_size: IMAGE,
    patch_size: 8,
    num_channels: 3,
    'cil-lab_fixture': 'Tiny random DINOv2-style image encoder made by scripts/make-clip-vision-fixture.mjs; not a real DINOv2.',
  },
  preprocessor: {
    crop_size: { height: IMAGE, width: IMAGE },
    do_center_crop: true,
    do_convert_rgb: true,
    do_normalize: true,
    do_rescale: true,
    do_resize: true,
    image_mean: [0.485, 0.456, 0.406],
    image_processor_type: 'BitImageProcessor',
    image_std: [0.229, 0.224, 0.225],
    resample: 3,
    rescale_factor: 0.00392156862745098,
    size: { shortest_edge: 40 },
  },
});

vitEncoder({ name: 'vit-tiny', seed: 20240614, hidden: 16 });
