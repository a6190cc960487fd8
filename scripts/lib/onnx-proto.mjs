// Hand-encoded ONNX (protobuf) for the tiny test models laid out like transformers.js repos
// (scripts/make-clip-fixture.mjs: the CLIP text fixture; scripts/make-clip-vision-fixture.mjs: the image encoders).
// No npm package: the few messages a model needs (ModelProto, GraphProto, NodeProto, TensorProto with raw_data,
// AttributeProto, ValueInfoProto) written field by field, and the seeded PRNG the weights come from.
//
// Field numbers are onnx.proto3's; tensors are little-endian raw_data; negative int64 values are 10-byte varints.

// ───────────────────────────── PRNG ─────────────────────────────

/** mulberry32: a seeded uniform [0, 1) generator. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal draws (Box–Muller) and float32 arrays of them from a uniform generator. */
export function gaussian(uniform) {
  const normal = () => {
    const u = 1 - uniform();
    const v = uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const randn = (n, std) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = normal() * std;
    return a;
  };
  return { normal, randn };
}

// ───────────────────────────── protobuf ─────────────────────────────

const enc = new TextEncoder();
export function concat(parts) {
  let n = 0;
  for (const p of parts) n += p.length;
  const outb = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    outb.set(p, o);
    o += p.length;
  }
  return outb;
}
export function varint(v) {
  let x = BigInt.asUintN(64, BigInt(v)); // negative int64 → 10-byte two's complement, as protobuf wants
  const bytes = [];
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x !== 0n) b |= 0x80;
    bytes.push(b);
  } while (x !== 0n);
  return Uint8Array.from(bytes);
}
const tag = (field, wire) => varint((field << 3) | wire);
export const pInt = (field, v) => concat([tag(field, 0), varint(v)]);
export const pBytes = (field, bytes) => concat([tag(field, 2), varint(bytes.length), bytes]);
export const pStr = (field, s) => pBytes(field, enc.encode(s));
export const pMsg = pBytes;

// onnx.TensorProto.DataType
export const FLOAT = 1;
export const UINT8 = 2;
export const INT8 = 3;
export const INT32 = 6;
export const INT64 = 7;
export const FLOAT16 = 10;

/** TensorProto with raw_data (little-endian). */
export function tensor(name, dataType, dims, typed) {
  const raw = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  return concat([...dims.map((d) => pInt(1, d)), pInt(2, dataType), pStr(8, name), pBytes(9, raw)]);
}
export const f32 = (name, dims, data) => tensor(name, FLOAT, dims, data instanceof Float32Array ? data : Float32Array.from(data));
export const i64 = (name, dims, data) => tensor(name, INT64, dims, BigInt64Array.from(data.map((x) => BigInt(x))));
export const u8 = (name, dims, data) => tensor(name, UINT8, dims, data);
export const s8 = (name, dims, data) => tensor(name, INT8, dims, data);
/** float16 raw data: the float32 values rounded to half precision (round to nearest even). */
export const f16 = (name, dims, data) => tensor(name, FLOAT16, dims, Uint16Array.from(data, toHalf));

/** IEEE 754 half-precision bits of a number, rounded to nearest, ties to even (as numpy's astype(float16)). */
export function toHalf(x) {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  f[0] = x;
  const b = u[0];
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  let mant = b & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    let m = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    if (rest > half || (rest === half && m & 1)) m++;
    return sign | m;
  }
  let m = mant >>> 13;
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && m & 1)) {
    m++;
    if (m === 0x400) {
      m = 0;
      e++;
      if (e >= 0x1f) return sign | 0x7c00;
    }
  }
  return sign | (e << 10) | m;
}

/** AttributeProto: int, ints. */
export const attrInt = (name, v) => concat([pStr(1, name), pInt(20, 2), pInt(3, v)]);
export const attrInts = (name, vs) => concat([pStr(1, name), pInt(20, 7), ...vs.map((v) => pInt(8, v))]);

export function node(opType, inputs, outputs, attrs = [], name = outputs[0]) {
  return concat([...inputs.map((i) => pStr(1, i)), ...outputs.map((o) => pStr(2, o)), pStr(3, name), pStr(4, opType), ...attrs.map((a) => pMsg(5, a))]);
}

/** ValueInfoProto for a tensor; dims are numbers (dim_value) or strings (dim_param). */
export function valueInfo(name, elemType, dims) {
  const shape = concat(dims.map((d) => pMsg(1, typeof d === 'number' ? pInt(1, d) : pStr(2, d))));
  const tensorType = concat([pInt(1, elemType), pMsg(2, shape)]);
  return concat([pStr(1, name), pMsg(2, pMsg(1, tensorType))]);
}

/**
 * ModelProto (ir_version 8, opset 14) of one graph: `inputs` and `outputs` are ValueInfoProtos (valueInfo above).
 */
export function model(nodes, initializers, graphName, doc, inputs, outputs, producer) {
  const graph = concat([
    ...nodes.map((n) => pMsg(1, n)),
    pStr(2, graphName),
    ...initializers.map((t) => pMsg(5, t)),
    pStr(10, doc),
    ...inputs.map((v) => pMsg(11, v)),
    ...outputs.map((v) => pMsg(12, v)),
  ]);
  return concat([
    pInt(1, 8), // ir_version
    pStr(2, producer),
    pStr(3, '1'),
    pMsg(7, graph),
    pMsg(8, concat([pStr(1, ''), pInt(2, 14)])), // opset_import: ai.onnx 14
  ]);
}

/**
 * Symmetric per-tensor int8 quantization (zero point 0), as onnxruntime's quantize_dynamic does for MatMul weights.
 * `qmax` 127 is the full int8 range; 63 is quantize_dynamic's `reduce_range` (7 bits), which keeps x86's u8·s8 pair
 * sums (VPMADDUBSW) from saturating int16, so every onnxruntime build gives the same integers.
 */
export function quantSym(w, qmax = 127) {
  let m = 0;
  for (const x of w) m = Math.max(m, Math.abs(x));
  const scale = Math.fround(m / qmax);
  const q = new Int8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.max(-qmax, Math.min(qmax, Math.round(w[i] / scale)));
  return { q, scale };
}

/**
 * A quantized MatMul, onnxruntime quantize_dynamic's pattern: the activations quantized at run time
 * (DynamicQuantizeLinear → uint8), MatMulInteger with the int8 weights `${weight}_q` (zero point `${weight}_zp`), then
 * rescaled by both scales.
 */
export function qMatMul(input, weight, output) {
  return [
    node('DynamicQuantizeLinear', [input], [`${input}_q`, `${input}_scale`, `${input}_zp`]),
    node('MatMulInteger', [`${input}_q`, `${weight}_q`, `${input}_zp`, `${weight}_zp`], [`${output}_i32`]),
    node('Cast', [`${output}_i32`], [`${output}_f`], [attrInt('to', FLOAT)]),
    node('Mul', [`${input}_scale`, `${weight}_scale`], [`${output}_scale`]),
    node('Mul', [`${output}_f`, `${output}_scale`], [output]),
  ];
}
