#!/usr/bin/env node
// Writes tests/fixtures/clip-tiny/: a tiny CLIP-architecture *text* model laid out exactly like a transformers.js
// model repo (Xenova/clip-vit-base-patch32 and friends), so the real loading path — AutoTokenizer +
// CLIPTextModelWithProjection.from_pretrained → onnxruntime — runs in tests without the network.
//
//   config.json              model_type "clip", text_config, vision_config, projection_dim (CLIPModel layout)
//   tokenizer.json           CLIP-style byte-level BPE: NFC + whitespace→" " + lowercase; CLIP's split regex; BPE
//                            with the "</w>" end-of-word suffix; RobertaProcessing adds <|startoftext|> … <|endoftext|>
//   tokenizer_config.json    CLIPTokenizer, pad = eos = unk = <|endoftext|>, model_max_length 77
//   special_tokens_map.json  as in the real repos (transformers.js does not read it)
//   onnx/text_model.onnx            fp32  (dtype 'fp32')
//   onnx/text_model_quantized.onnx  q8    (dtype 'q8'): genuinely quantized, the way onnxruntime's quantize_dynamic
//                                   does it — int8 weights, DynamicQuantizeLinear + MatMulInteger for the MatMuls,
//                                   a uint8 embedding table gathered then DequantizeLinear'd
//   reference.json           input_ids → the text_embeds the fp32 graph must give (computed here in float64 from
//                            the float32 weights), so a test can check onnxruntime runs the hand-encoded graph right
//
// The ONNX graph (opset 14, ir_version 8, protobuf encoded by hand below — no npm package):
//   input_ids int64 [batch, seq]
//   x   = tok_emb[input_ids] + pos_emb[0..seq)                    (Gather, Shape/Range/Gather, Add)
//   m   = CumSum(x, axis 1) / (position + 1)                       causal running mean: token t sees tokens ≤ t,
//                                                                  like CLIP's causal attention, so right padding
//                                                                  never changes an embedding
//   h   = tanh(m · W1 + b1)                        → last_hidden_state [batch, seq, hidden]
//   eos = ArgMax(Cast<int32>(input_ids), axis 1)                   first occurrence: CLIP pools at the EOS token,
//                                                                  which has the highest id; padding uses the same
//                                                                  token, so the first one is the real EOS
//   text_embeds = GatherND(h, eos, batch_dims 1) · W_proj  → [batch, projection_dim]   (NOT normalised, like CLIP)
//
// Weights come from a seeded PRNG (mulberry32 + Box–Muller); the output is byte-for-byte deterministic.
// Usage: node scripts/make-clip-fixture.mjs [--out DIR]
import { mkdirSync, writeFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FLOAT,
  INT32,
  INT64,
  attrInt,
  f32,
  gaussian,
  i64,
  model as onnxModel,
  mulberry32,
  node,
  qMatMul,
  quantSym,
  s8,
  u8,
  valueInfo,
} from './lib/onnx-proto.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? process.argv[outArg + 1] : join(root, 'tests', 'fixtures', 'clip-tiny');

// ───────────────────────────── sizes ─────────────────────────────
const HIDDEN = 32;
const PROJECTION = 16;
const MAX_POSITIONS = 77; // CLIP's context length
const N_MERGES = 240;
const SEED = 20240601;

// ───────────────────────────── PRNG ─────────────────────────────
const uniform = mulberry32(SEED);
const { randn } = gaussian(uniform);

// ───────────────────────────── tokenizer ─────────────────────────────
/** GPT-2 / CLIP bytes_to_unicode: printable bytes map to themselves, the rest to U+0100…; in CLIP's vocab order. */
function bytesToUnicode() {
  const bs = [];
  for (let b = 0x21; b <= 0x7e; b++) bs.push(b);
  for (let b = 0xa1; b <= 0xac; b++) bs.push(b);
  for (let b = 0xae; b <= 0xff; b++) bs.push(b);
  const cs = bs.slice();
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n);
      n++;
    }
  }
  const map = new Map();
  bs.forEach((b, i) => map.set(b, String.fromCodePoint(cs[i])));
  return { order: bs, map };
}
const b2u = bytesToUnicode();

// A small, fixed corpus for learning merges: class names of the usual CIL benchmarks and prompt words.
const CORPUS = `a photo of a the an and with in on of small large
apple aquarium fish baby bear beaver bed bee beetle bicycle bottle bowl boy bridge bus butterfly camel can castle
caterpillar cattle chair chimpanzee clock cloud cockroach couch crab crocodile cup dinosaur dolphin elephant flatfish
forest fox girl hamster house kangaroo keyboard lamp lawn mower leopard lion lizard lobster man maple tree motorcycle
mountain mouse mushroom oak orange orchid otter palm pear pickup truck pine plain plate poppy porcupine possum rabbit
raccoon ray road rocket rose sea seal shark shrew skunk skyscraper snail snake spider squirrel streetcar sunflower
sweet pepper table tank telephone television tiger tractor train trout tulip turtle wardrobe whale willow wolf woman
worm airplane automobile bird cat deer dog frog horse ship truck zero one two three four five six seven eight nine
t-shirt top trouser pullover dress coat sandal shirt sneaker bag ankle boot tench goldfish great white shark
melanoma nevus keratosis carcinoma lesion retina mild moderate severe proliferative picture drawing painting
the the the a a a of of photo photo photo`;

function learnMerges(text, nMerges) {
  const words = new Map();
  for (const w of text.toLowerCase().match(/[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+/gu)) {
    const syms = [...new TextEncoder().encode(w)].map((b) => b2u.map.get(b));
    syms[syms.length - 1] += '</w>';
    const key = syms.join(' ');
    words.set(key, (words.get(key) ?? 0) + 1);
  }
  let entries = [...words.entries()].map(([k, c]) => [k.split(' '), c]);
  const merges = [];
  for (let m = 0; m < nMerges; m++) {
    const pairs = new Map();
    for (const [syms, c] of entries) {
      for (let i = 0; i + 1 < syms.length; i++) {
        const p = `${syms[i]} ${syms[i + 1]}`;
        pairs.set(p, (pairs.get(p) ?? 0) + c);
      }
    }
    if (pairs.size === 0) break;
    // Most frequent pair; ties broken by the pair's text so the result never depends on Map order.
    let best = null;
    let bestCount = -1;
    for (const [p, c] of pairs) {
      if (c > bestCount || (c === bestCount && p < best)) {
        best = p;
        bestCount = c;
      }
    }
    const [a, b] = best.split(' ');
    merges.push(best);
    entries = entries.map(([syms, c]) => {
      const next = [];
      for (let i = 0; i < syms.length; i++) {
        if (i + 1 < syms.length && syms[i] === a && syms[i + 1] === b) {
          next.push(a + b);
          i++;
        } else next.push(syms[i]);
      }
      return [next, c];
    });
  }
  return merges;
}

const merges = learnMerges(CORPUS, N_MERGES);
const vocabList = [];
for (const b of b2u.order) vocabList.push(b2u.map.get(b));
for (const b of b2u.order) vocabList.push(`${b2u.map.get(b)}</w>`);
for (const m of merges) {
  const t = m.replace(' ', '');
  if (!vocabList.includes(t)) vocabList.push(t);
}
const BOS = '<|startoftext|>';
const EOS = '<|endoftext|>';
vocabList.push(BOS, EOS);
const VOCAB = vocabList.length;
const BOS_ID = VOCAB - 2;
const EOS_ID = VOCAB - 1; // the highest id, as in CLIP (49407)
const vocab = Object.fromEntries(vocabList.map((t, i) => [t, i]));

const specialToken = (id, content) => ({
  id,
  content,
  single_word: false,
  lstrip: false,
  rstrip: false,
  normalized: true,
  special: true,
});
const tokenizerJson = {
  version: '1.0',
  truncation: null,
  padding: null,
  added_tokens: [specialToken(BOS_ID, BOS), specialToken(EOS_ID, EOS)],
  normalizer: {
    type: 'Sequence',
    normalizers: [{ type: 'NFC' }, { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' }, { type: 'Lowercase' }],
  },
  pre_tokenizer: {
    type: 'Sequence',
    pretokenizers: [
      {
        type: 'Split',
        pattern: {
          Regex: "<\\|startoftext\\|>|<\\|endoftext\\|>|'s|'t|'re|'ve|'m|'ll|'d|[\\p{L}]+|[\\p{N}]|[^\\s\\p{L}\\p{N}]+",
        },
        behavior: 'Removed',
        invert: true,
      },
      { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
    ],
  },
  post_processor: {
    type: 'RobertaProcessing',
    sep: [EOS, EOS_ID],
    cls: [BOS, BOS_ID],
    trim_offsets: false,
    add_prefix_space: false,
  },
  decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
  model: {
    type: 'BPE',
    dropout: null,
    unk_token: EOS,
    continuing_subword_prefix: '',
    end_of_word_suffix: '</w>',
    fuse_unk: false,
    byte_fallback: false,
    vocab,
    merges,
  },
};
const tokenizerConfig = {
  add_prefix_space: false,
  bos_token: BOS,
  clean_up_tokenization_spaces: true,
  do_lower_case: true,
  eos_token: EOS,
  errors: 'replace',
  model_max_length: MAX_POSITIONS,
  pad_token: EOS,
  tokenizer_class: 'CLIPTokenizer',
  unk_token: EOS,
};
const specialTokensMap = { bos_token: BOS, eos_token: EOS, pad_token: EOS, unk_token: EOS };

const config = {
  _name_or_path: 'cil-lab/clip-tiny',
  architectures: ['CLIPModel'],
  model_type: 'clip',
  projection_dim: PROJECTION,
  logit_scale_init_value: 2.6592,
  initializer_factor: 1.0,
  text_config: {
    model_type: 'clip_text_model',
    vocab_size: VOCAB,
    hidden_size: HIDDEN,
    intermediate_size: HIDDEN * 2,
    num_hidden_layers: 1,
    num_attention_heads: 2,
    max_position_embeddings: MAX_POSITIONS,
    hidden_act: 'quick_gelu',
    bos_token_id: BOS_ID,
    eos_token_id: EOS_ID,
    pad_token_id: 1,
    projection_dim: PROJECTION,
  },
  vision_config: {
    model_type: 'clip_vision_model',
    hidden_size: HIDDEN,
    intermediate_size: HIDDEN * 2,
    num_hidden_layers: 1,
    num_attention_heads: 2,
    image_size: 32,
    patch_size: 16,
    projection_dim: PROJECTION,
  },
  'cil-lab_fixture': 'Tiny random CLIP-architecture text model made by scripts/make-clip-fixture.mjs; not a real CLIP.',
};

// ───────────────────────────── weights ─────────────────────────────
const W = {
  tok: randn(VOCAB * HIDDEN, 1),
  pos: randn(MAX_POSITIONS * HIDDEN, 0.3),
  w1: randn(HIDDEN * HIDDEN, 2 / Math.sqrt(HIDDEN)),
  b1: randn(HIDDEN, 0.1),
  proj: randn(HIDDEN * PROJECTION, 1 / Math.sqrt(HIDDEN)),
};

// ───────────────────────────── ONNX (hand-encoded: scripts/lib/onnx-proto.mjs) ─────────────────────────────
function model(nodes, initializers, graphName, doc) {
  return onnxModel(
    nodes,
    initializers,
    graphName,
    doc,
    [valueInfo('input_ids', INT64, ['batch_size', 'sequence_length'])],
    [valueInfo('text_embeds', FLOAT, ['batch_size', PROJECTION]), valueInfo('last_hidden_state', FLOAT, ['batch_size', 'sequence_length', HIDDEN])],
    'cil-lab make-clip-fixture.mjs',
  );
}

// Shared front part: embeddings + positions + causal running mean. `tokNodes` makes `tok` [B,S,H].
function frontNodes() {
  return [
    node('Shape', ['input_ids'], ['ids_shape']),
    node('Gather', ['ids_shape', 'c_one'], ['seq_len'], [attrInt('axis', 0)]),
    node('Range', ['c_zero', 'seq_len', 'c_one'], ['positions']),
    node('Gather', ['pos_emb', 'positions'], ['pos'], [attrInt('axis', 0)]),
    node('Add', ['tok', 'pos'], ['x']),
    node('CumSum', ['x', 'c_one'], ['x_cumsum']),
    node('Cast', ['positions'], ['positions_f'], [attrInt('to', FLOAT)]),
    node('Add', ['positions_f', 'c_one_f'], ['counts']),
    node('Unsqueeze', ['counts', 'c_axes1'], ['counts_col']),
    node('Div', ['x_cumsum', 'counts_col'], ['x_mean']),
  ];
}
function poolNodes() {
  return [
    node('Cast', ['input_ids'], ['ids_i32'], [attrInt('to', INT32)]),
    node('ArgMax', ['ids_i32'], ['eos_index'], [attrInt('axis', 1), attrInt('keepdims', 1), attrInt('select_last_index', 0)]),
    node('GatherND', ['last_hidden_state', 'eos_index'], ['pooled'], [attrInt('batch_dims', 1)]),
  ];
}
function constInits() {
  return [i64('c_zero', [], [0]), i64('c_one', [], [1]), i64('c_axes1', [1], [1]), f32('c_one_f', [], [1]), f32('pos_emb', [MAX_POSITIONS, HIDDEN], W.pos)];
}

const fp32Model = model(
  [
    node('Gather', ['tok_emb', 'input_ids'], ['tok'], [attrInt('axis', 0)]),
    ...frontNodes(),
    node('MatMul', ['x_mean', 'w1'], ['h_pre']),
    node('Add', ['h_pre', 'b1'], ['h_bias']),
    node('Tanh', ['h_bias'], ['last_hidden_state']),
    ...poolNodes(),
    node('MatMul', ['pooled', 'w_proj'], ['text_embeds']),
  ],
  [
    f32('tok_emb', [VOCAB, HIDDEN], W.tok),
    ...constInits(),
    f32('w1', [HIDDEN, HIDDEN], W.w1),
    f32('b1', [HIDDEN], W.b1),
    f32('w_proj', [HIDDEN, PROJECTION], W.proj),
  ],
  'clip_tiny_text_fp32',
  'Tiny random CLIP-architecture text encoder (fp32). Not a real CLIP.',
);

// q8: weights quantized per tensor. MatMul weights: symmetric int8 (zero point 0), activations quantized at run
// time (DynamicQuantizeLinear → uint8), MatMulInteger, then rescaled — onnxruntime quantize_dynamic's pattern.
// Embedding table: asymmetric uint8, Gather then DequantizeLinear.
function quantAsym(w) {
  let lo = 0;
  let hi = 0;
  for (const x of w) {
    lo = Math.min(lo, x);
    hi = Math.max(hi, x);
  }
  const scale = Math.fround((hi - lo) / 255);
  const zp = Math.max(0, Math.min(255, Math.round(-lo / scale)));
  const q = new Uint8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.max(0, Math.min(255, Math.round(w[i] / scale) + zp));
  return { q, scale, zp };
}
const qTok = quantAsym(W.tok);
const qW1 = quantSym(W.w1);
const qProj = quantSym(W.proj);
const q8Model = model(
  [
    node('Gather', ['tok_emb_q', 'input_ids'], ['tok_q'], [attrInt('axis', 0)]),
    node('DequantizeLinear', ['tok_q', 'tok_emb_scale', 'tok_emb_zp'], ['tok']),
    ...frontNodes(),
    ...qMatMul('x_mean', 'w1', 'h_pre'),
    node('Add', ['h_pre', 'b1'], ['h_bias']),
    node('Tanh', ['h_bias'], ['last_hidden_state']),
    ...poolNodes(),
    ...qMatMul('pooled', 'w_proj', 'text_embeds'),
  ],
  [
    u8('tok_emb_q', [VOCAB, HIDDEN], qTok.q),
    f32('tok_emb_scale', [], [qTok.scale]),
    u8('tok_emb_zp', [], Uint8Array.of(qTok.zp)),
    ...constInits(),
    s8('w1_q', [HIDDEN, HIDDEN], qW1.q),
    f32('w1_scale', [], [qW1.scale]),
    s8('w1_zp', [], Int8Array.of(0)),
    f32('b1', [HIDDEN], W.b1),
    s8('w_proj_q', [HIDDEN, PROJECTION], qProj.q),
    f32('w_proj_scale', [], [qProj.scale]),
    s8('w_proj_zp', [], Int8Array.of(0)),
  ],
  'clip_tiny_text_q8',
  'Tiny random CLIP-architecture text encoder, dynamically quantized (int8 weights). Not a real CLIP.',
);

// ───────────────────────────── reference outputs (fp32 graph, float64 arithmetic) ─────────────────────────────
function referenceEmbeds(ids) {
  const s = ids.length;
  const acc = new Float64Array(HIDDEN);
  const eos = ids.indexOf(Math.max(...ids));
  let pooled = null;
  for (let t = 0; t < s; t++) {
    for (let k = 0; k < HIDDEN; k++) acc[k] += W.tok[ids[t] * HIDDEN + k] + W.pos[t * HIDDEN + k];
    if (t !== eos) continue;
    pooled = new Float64Array(HIDDEN);
    for (let j = 0; j < HIDDEN; j++) {
      let z = W.b1[j];
      for (let k = 0; k < HIDDEN; k++) z += (acc[k] / (t + 1)) * W.w1[k * HIDDEN + j];
      pooled[j] = Math.tanh(z);
    }
  }
  const e = [];
  for (let p = 0; p < PROJECTION; p++) {
    let z = 0;
    for (let j = 0; j < HIDDEN; j++) z += pooled[j] * W.proj[j * PROJECTION + p];
    e.push(z);
  }
  return e;
}
const refInputs = [
  [BOS_ID, vocab['a</w>'], vocab['cat</w>'] ?? vocab['t</w>'], EOS_ID],
  [BOS_ID, 10, 20, 30, 40, EOS_ID, EOS_ID, EOS_ID],
  [BOS_ID, EOS_ID],
];
const reference = {
  _note:
    'text_embeds of the fp32 graph for these input_ids, computed by scripts/make-clip-fixture.mjs in float64 from the float32 weights; onnxruntime must agree to ~1e-5.',
  cases: refInputs.map((ids) => ({ input_ids: ids, text_embeds: referenceEmbeds(ids) })),
};

// ───────────────────────────── write ─────────────────────────────
const json = (o) => `${JSON.stringify(o, null, 2)}\n`;
mkdirSync(join(out, 'onnx'), { recursive: true });
writeFileSync(join(out, 'config.json'), json(config));
writeFileSync(join(out, 'tokenizer.json'), JSON.stringify(tokenizerJson));
writeFileSync(join(out, 'tokenizer_config.json'), json(tokenizerConfig));
writeFileSync(join(out, 'special_tokens_map.json'), json(specialTokensMap));
writeFileSync(join(out, 'onnx', 'text_model.onnx'), fp32Model);
writeFileSync(join(out, 'onnx', 'text_model_quantized.onnx'), q8Model);
writeFileSync(join(out, 'reference.json'), json(reference));

let total = 0;
const list = [];
for (const f of [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'reference.json',
  'onnx/text_model.onnx',
  'onnx/text_model_quantized.onnx',
]) {
  const size = statSync(join(out, f)).size;
  total += size;
  list.push(`${f} ${size} B`);
}
console.log(
  `[make-clip-fixture] wrote ${relative(root, out) || out}/ (vocab ${VOCAB}, ${merges.length} merges, hidden ${HIDDEN}, projection ${PROJECTION}; ${(total / 1024).toFixed(1)} KB): ${list.join(', ')}`,
);
