/// <reference types="@webgpu/types" />
/**
 * Level-batched MLP training on WebGPU: many MLPs of one shape — every prefix of one depth of a ground truth's trie —
 * with their weights, Adam moments and batches resident in GPU buffers, trained in lockstep by the kernels of
 * level-kernels.ts: 3 dispatches per layer and step for all of them together (forward, the gradient into the layer
 * below, the weight gradient with the optimiser's update), whatever their number. Evaluation predicts every model's
 * test examples the same way, and the predictions come back in one read-back per call. Nothing is read back per step.
 *
 * What it computes is the fused wasm step's arithmetic (kernels/fused-mlp.ts, wasm/mlp-step.ts): the same batches
 * (the caller draws them as the trainer does), the same initial weights, the same loss, gradients and tfjs's Adam with
 * β^t in float32; GPU floats sum in another order, so results agree with wasm's within rounding, not bit for bit.
 *
 * Weights live in blocks (`WeightBlock`: up to `capacity` models each) that outlast a training call, so a level's
 * models start from copies of their parents' trained weights (buffer copies, no dispatch) and the previous level's
 * block is let go once copied. The optimiser state and activations are shared scratch of `capacity` models.
 */
import type { NetworkSpec } from '../models';
import { gpuCounters, type GpuHandle } from './device';
import {
  argmaxKernel,
  forwardKernel,
  gradInputKernel,
  gradWAdamKernel,
  padTile,
  UNIFORM_STRIDE,
  xentKernel,
  type KernelSpec,
  type LevelShape,
} from './level-kernels';

/** v / 255 in float32 for every byte value: what batchImages stores and the fused step's table. */
const SCALE = Float32Array.from({ length: 256 }, (_, v) => v / 255);

/** A block of models' weights on the GPU (paramInfo order, padded), `count` slots. */
export interface WeightBlock {
  readonly buffer: GPUBuffer;
  readonly count: number;
  /** bind groups made for this block, by kernel (remade when the shared buffers grow) */
  groups: Map<string, GPUBindGroup>;
  generation: number;
}

/** The optimiser of a training call (a fresh one per task, as the trainer creates). */
export interface LevelOptimizer {
  kind: 'adam' | 'sgd';
  lr: number;
  beta1: number;
  beta2: number;
  epsilon: number;
}

/** One model of a training call: its epoch's example order (the trainer's `epochOrder` draw) and output units. */
export interface LevelMember {
  order(epoch: number): Int32Array;
  unitOf(example: number): number;
}

export interface LevelTrainOptions {
  epochs: number;
  batchSize: number;
  /** the loss's head width (the same for every member: one depth of one experiment) */
  head: number;
  optimizer: LevelOptimizer;
  /** awaited between steps (pause, cancel; throws to stop) */
  between?: () => Promise<void> | void;
  /** after each step is done on the GPU: steps done of the call's total */
  onStep?: (done: number, total: number) => void;
}

interface Kernel {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
  spec: KernelSpec;
}

type Slot = 'uniform' | 'read' | 'rw';

/** Steps whose work may be queued at once before the next is encoded (keeps cancel responsive). */
const IN_FLIGHT = 3;

export class LevelMlp {
  readonly capacity: number;
  readonly shape: LevelShape;
  /** real widths: input, hidden…, outputs */
  readonly widths: number[];
  private readonly device: GPUDevice;
  private readonly L: number;
  private readonly kernels = new Map<string, Kernel>();
  private readonly trainData: GPUBuffer;
  private readonly testData: GPUBuffer;
  private readonly scale: GPUBuffer;
  private readonly m1: GPUBuffer;
  private readonly m2: GPUBuffer;
  /** hidden layers' outputs, the logits (dZ in place), hidden layers' dZ: [capacity × R × width] each */
  private readonly act: GPUBuffer[];
  private readonly dz: GPUBuffer[];
  private readonly logits: GPUBuffer;
  private uniform: GPUBuffer;
  private uniformSlots: number;
  private idx: GPUBuffer | null = null;
  private units: GPUBuffer | null = null;
  private idxStride = 0;
  private evalIdx: GPUBuffer | null = null;
  private pred: GPUBuffer | null = null;
  private staging: GPUBuffer | null = null;
  private evalStride = 0;
  private generation = 0;
  private readonly owned: GPUBuffer[] = [];
  private destroyed = false;

  private constructor(
    gpu: GpuHandle,
    spec: NetworkSpec,
    data: { train: Uint8Array | Float32Array; test: Uint8Array | Float32Array; size: number },
    capacity: number,
    rows: number,
  ) {
    if (spec.kind !== 'mlp') throw new Error('Level-batched training trains MLPs only.');
    this.device = gpu.device;
    this.capacity = capacity;
    const [h, w, c] = spec.inputShape;
    this.widths = [h * w * c, ...(spec.hidden ?? []), spec.outputs];
    if (data.size !== this.widths[0]) throw new RangeError(`Inputs of ${data.size} values, the network takes ${this.widths[0]}.`);
    const dims = this.widths.map(padTile);
    this.L = dims.length - 1;
    const wOff: number[] = [];
    const bOff: number[] = [];
    let P = 0;
    for (let l = 0; l < this.L; l++) {
      wOff.push(P);
      P += dims[l] * dims[l + 1];
      bOff.push(P);
      P += dims[l + 1];
    }
    const bytes = data.train instanceof Uint8Array;
    // a row of input in the dataset buffers: bytes 4 to a word, floats one each; padded to the layer's width
    const inWords = bytes ? dims[0] / 4 : dims[0];
    this.shape = { dims, input: bytes ? 'bytes' : 'floats', inWords, R: rows, P, wOff, bOff };
    this.trainData = this.dataBuffer(data.train, data.size, inWords);
    this.testData = this.dataBuffer(data.test, data.size, inWords);
    this.scale = this.buffer(SCALE.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
    this.device.queue.writeBuffer(this.scale, 0, SCALE);
    const S = GPUBufferUsage.STORAGE;
    this.m1 = this.buffer(capacity * P * 4, S | GPUBufferUsage.COPY_DST);
    this.m2 = this.buffer(capacity * P * 4, S | GPUBufferUsage.COPY_DST);
    this.act = dims.slice(1, -1).map((n) => this.buffer(capacity * rows * n * 4, S));
    this.dz = dims.slice(1, -1).map((n) => this.buffer(capacity * rows * n * 4, S));
    this.logits = this.buffer(capacity * rows * dims[this.L] * 4, S);
    this.uniformSlots = 64;
    this.uniform = this.buffer(this.uniformSlots * UNIFORM_STRIDE, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  }

  /**
   * Bytes a level of `models` models of this shape needs on the GPU beside the datasets: two weight blocks (this level
   * and its parents), Adam's two moments, activations and their gradients for `rows` rows.
   */
  static bytesPerModel(spec: NetworkSpec, rows: number): number {
    const [h, w, c] = spec.inputShape;
    const dims = [h * w * c, ...(spec.hidden ?? []), spec.outputs].map(padTile);
    let P = 0;
    for (let l = 0; l + 1 < dims.length; l++) P += dims[l] * dims[l + 1] + dims[l + 1];
    const acts = dims.slice(1).reduce((a, b) => a + b, 0) + dims.slice(1, -1).reduce((a, b) => a + b, 0);
    return 4 * (4 * P + rows * acts);
  }

  /** Floats in one model's padded parameter block. */
  static paramFloats(spec: NetworkSpec): number {
    const [h, w, c] = spec.inputShape;
    const dims = [h * w * c, ...(spec.hidden ?? []), spec.outputs].map(padTile);
    let P = 0;
    for (let l = 0; l + 1 < dims.length; l++) P += dims[l] * dims[l + 1] + dims[l + 1];
    return P;
  }

  /**
   * A trainer for `spec` on the dataset's images (bytes) or feature vectors (floats), for up to `capacity` models at
   * once; `rows`: activation rows per model (≥ the batch size; evaluation runs in chunks of it).
   */
  static async create(
    gpu: GpuHandle,
    spec: NetworkSpec,
    data: { train: Uint8Array | Float32Array; test: Uint8Array | Float32Array; size: number },
    capacity: number,
    rows: number,
  ): Promise<LevelMlp> {
    const mlp = new LevelMlp(gpu, spec, data, capacity, rows);
    await mlp.compile();
    return mlp;
  }

  private buffer(size: number, usage: number): GPUBuffer {
    const b = this.device.createBuffer({ size: Math.max(16, Math.ceil(size / 4) * 4), usage });
    this.owned.push(b);
    return b;
  }

  /** A dataset split on the GPU, each example padded with zeros to `inWords` words. */
  private dataBuffer(src: Uint8Array | Float32Array, size: number, inWords: number): GPUBuffer {
    const n = src.length / size;
    let words: Uint32Array | Float32Array;
    if (src instanceof Float32Array) {
      if (inWords === size) words = src;
      else {
        words = new Float32Array(n * inWords);
        for (let e = 0; e < n; e++) words.set(src.subarray(e * size, (e + 1) * size), e * inWords);
      }
    } else {
      const padded = new Uint8Array(n * inWords * 4);
      if (inWords * 4 === size) padded.set(src);
      else for (let e = 0; e < n; e++) padded.set(src.subarray(e * size, (e + 1) * size), e * inWords * 4);
      words = new Uint32Array(padded.buffer);
    }
    const b = this.buffer(words.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
    this.device.queue.writeBuffer(b, 0, words as Uint32Array<ArrayBuffer>);
    return b;
  }

  /** Every kernel compiled (pipelines made together, so a driver can compile them in parallel). */
  private async compile(): Promise<void> {
    const s = this.shape;
    const specs: [string, KernelSpec, Record<number, Slot>][] = [];
    const first: Record<number, Slot> = { 0: 'uniform', 1: 'read', 2: 'read', 3: 'read', 4: 'read', 5: 'rw' };
    for (let l = 0; l < this.L; l++) specs.push([`fwd${l}`, forwardKernel(s, l), l === 0 ? first : { 0: 'uniform', 1: 'read', 2: 'read', 5: 'rw' }]);
    specs.push(['xent', xentKernel(s), { 0: 'uniform', 1: 'rw', 2: 'read' }]);
    specs.push(['argmax', argmaxKernel(s), { 0: 'uniform', 1: 'read', 2: 'rw' }]);
    for (let l = 0; l + 1 < this.L; l++) specs.push([`gin${l}`, gradInputKernel(s, l), { 0: 'uniform', 1: 'read', 2: 'read', 3: 'read', 4: 'rw' }]);
    for (let l = 0; l < this.L; l++)
      specs.push([
        `gw${l}`,
        gradWAdamKernel(s, l),
        l === 0
          ? { 0: 'uniform', 1: 'rw', 2: 'read', 3: 'read', 4: 'read', 6: 'rw', 7: 'rw', 8: 'read' }
          : { 0: 'uniform', 1: 'rw', 2: 'read', 6: 'rw', 7: 'rw', 8: 'read' },
      ]);
    await Promise.all(
      specs.map(async ([name, spec, slots]) => {
        const layout = this.device.createBindGroupLayout({
          entries: Object.entries(slots).map(([binding, kind]) => ({
            binding: Number(binding),
            visibility: GPUShaderStage.COMPUTE,
            buffer:
              kind === 'uniform'
                ? { type: 'uniform' as const, hasDynamicOffset: true, minBindingSize: UNIFORM_STRIDE }
                : { type: kind === 'rw' ? ('storage' as const) : ('read-only-storage' as const) },
          })),
        });
        const module = this.device.createShaderModule({ code: spec.code });
        const pipeline = await this.device.createComputePipelineAsync({
          layout: this.device.createPipelineLayout({ bindGroupLayouts: [layout] }),
          compute: { module, entryPoint: 'main' },
        });
        this.kernels.set(name, { pipeline, layout, spec });
      }),
    );
  }

  /** A weight block for `count` models (zeros until set or copied). */
  newBlock(count: number): WeightBlock {
    if (!(count >= 1 && count <= this.capacity)) throw new RangeError(`A block holds 1..${this.capacity} models, not ${count}.`);
    const buffer = this.device.createBuffer({
      size: count * this.shape.P * 4,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    return { buffer, count, groups: new Map(), generation: -1 };
  }

  /** Let a block go. */
  freeBlock(block: WeightBlock): void {
    block.groups.clear();
    block.buffer.destroy();
  }

  /** Model `slot`'s weights (paramInfo order: kernel [in × out], bias [out] per layer) into the padded layout. */
  setWeights(block: WeightBlock, slot: number, weights: Float32Array[]): void {
    const s = this.shape;
    if (weights.length !== 2 * this.L) throw new Error(`Expected ${2 * this.L} weight arrays, got ${weights.length}.`);
    const out = new Float32Array(s.P);
    for (let l = 0; l < this.L; l++) {
      const kin = this.widths[l];
      const nout = this.widths[l + 1];
      const n = s.dims[l + 1];
      const src = weights[2 * l];
      if (src.length !== kin * nout || weights[2 * l + 1].length !== nout) throw new Error(`Layer ${l + 1}: weights of the wrong size.`);
      for (let i = 0; i < kin; i++) out.set(src.subarray(i * nout, (i + 1) * nout), s.wOff[l] + i * n);
      out.set(weights[2 * l + 1], s.bOff[l]);
    }
    this.device.queue.writeBuffer(block.buffer, slot * s.P * 4, out);
  }

  /** Copy models' weights between blocks (`[from, fromSlot, toSlot]`…, all into `to`): buffer copies, no dispatch. */
  copyWeights(to: WeightBlock, copies: [from: WeightBlock, fromSlot: number, toSlot: number][]): void {
    if (copies.length === 0) return;
    const bytes = this.shape.P * 4;
    const enc = this.device.createCommandEncoder();
    for (const [from, a, b] of copies) enc.copyBufferToBuffer(from.buffer, a * bytes, to.buffer, b * bytes, bytes);
    this.submit(enc);
  }

  /** Model `slot`'s weights read back, in paramInfo order, unpadded (one read-back; tests and checkpoints). */
  async readWeights(block: WeightBlock, slot: number): Promise<Float32Array[]> {
    const s = this.shape;
    const staging = this.device.createBuffer({ size: s.P * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    try {
      const enc = this.device.createCommandEncoder();
      enc.copyBufferToBuffer(block.buffer, slot * s.P * 4, staging, 0, s.P * 4);
      this.submit(enc);
      gpuCounters().readbacks++;
      await staging.mapAsync(GPUMapMode.READ);
      const all = new Float32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      const out: Float32Array[] = [];
      for (let l = 0; l < this.L; l++) {
        const kin = this.widths[l];
        const nout = this.widths[l + 1];
        const n = s.dims[l + 1];
        const w = new Float32Array(kin * nout);
        for (let i = 0; i < kin; i++) w.set(all.subarray(s.wOff[l] + i * n, s.wOff[l] + i * n + nout), i * nout);
        out.push(w, all.slice(s.bOff[l], s.bOff[l] + nout));
      }
      return out;
    } finally {
      staging.destroy();
    }
  }

  private submit(enc: GPUCommandEncoder): void {
    this.device.queue.submit([enc.finish()]);
    gpuCounters().submits++;
  }

  /** The uniform buffer with room for `slots` dispatch groups. */
  private ensureUniform(slots: number): void {
    if (slots <= this.uniformSlots) return;
    this.uniform.destroy();
    this.uniformSlots = Math.max(slots, 2 * this.uniformSlots);
    this.uniform = this.buffer(this.uniformSlots * UNIFORM_STRIDE, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
    this.generation++;
  }

  private ensureTrainIndex(stride: number): void {
    if (this.idx && stride <= this.idxStride) return;
    this.idx?.destroy();
    this.units?.destroy();
    this.idxStride = stride;
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.idx = this.buffer(this.capacity * stride * 4, usage);
    this.units = this.buffer(this.capacity * stride * 4, usage);
    this.generation++;
  }

  private ensureEvalIndex(stride: number): void {
    if (this.evalIdx && stride <= this.evalStride) return;
    this.evalIdx?.destroy();
    this.pred?.destroy();
    this.staging?.destroy();
    this.evalStride = stride;
    this.evalIdx = this.buffer(this.capacity * stride * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
    this.pred = this.buffer(this.capacity * stride * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
    this.staging = this.buffer(this.capacity * stride * 4, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
    this.generation++;
  }

  /** The bind group of kernel `name` over `block` (training or evaluation inputs), made once per buffer generation. */
  private group(name: string, block: WeightBlock, evaluating: boolean): GPUBindGroup {
    if (block.generation !== this.generation) {
      block.groups.clear();
      block.generation = this.generation;
    }
    const key = `${name}:${evaluating ? 'e' : 't'}`;
    const have = block.groups.get(key);
    if (have) return have;
    const L = this.L;
    const idx = (evaluating ? this.evalIdx : this.idx) as GPUBuffer;
    const data = evaluating ? this.testData : this.trainData;
    const hidden = (l: number): GPUBuffer => (l === L - 1 ? this.logits : this.act[l]);
    const dzOf = (l: number): GPUBuffer => (l === L - 1 ? this.logits : this.dz[l]);
    let buffers: Record<number, GPUBuffer>;
    const l = Number(name.replace(/^\D+/, ''));
    if (name.startsWith('fwd'))
      buffers = l === 0 ? { 1: block.buffer, 2: idx, 3: data, 4: this.scale, 5: hidden(0) } : { 1: block.buffer, 2: this.act[l - 1], 5: hidden(l) };
    else if (name === 'xent') buffers = { 1: this.logits, 2: this.units as GPUBuffer };
    else if (name === 'argmax') buffers = { 1: this.logits, 2: this.pred as GPUBuffer };
    else if (name.startsWith('gin')) buffers = { 1: block.buffer, 2: dzOf(l + 1), 3: this.act[l], 4: this.dz[l] };
    else
      buffers =
        l === 0
          ? { 1: block.buffer, 2: idx, 3: data, 4: this.scale, 6: this.m1, 7: this.m2, 8: dzOf(0) }
          : { 1: block.buffer, 2: this.act[l - 1], 6: this.m1, 7: this.m2, 8: dzOf(l) };
    const kernel = this.kernels.get(name) as Kernel;
    const g = this.device.createBindGroup({
      layout: kernel.layout,
      entries: [
        { binding: 0, resource: { buffer: this.uniform, size: UNIFORM_STRIDE } },
        ...Object.entries(buffers).map(([b, buffer]) => ({ binding: Number(b), resource: { buffer } })),
      ],
    });
    block.groups.set(key, g);
    return g;
  }

  /** Kernel `name` over `rows` rows of `count` models, with the uniform of `slot`. */
  private dispatch(pass: GPUComputePassEncoder, name: string, block: WeightBlock, evaluating: boolean, slot: number, rows: number, count: number): void {
    const kernel = this.kernels.get(name) as Kernel;
    pass.setPipeline(kernel.pipeline);
    pass.setBindGroup(0, this.group(name, block, evaluating), [slot * UNIFORM_STRIDE]);
    pass.dispatchWorkgroups(...kernel.spec.grid(rows, count));
    gpuCounters().dispatches++;
  }

  /** The forward pass of `rows` rows of `count` models (uniform `slot`), logits left in `logits`. */
  private forward(pass: GPUComputePassEncoder, block: WeightBlock, count: number, rows: number, slot: number, evaluating: boolean): void {
    for (let l = 0; l < this.L; l++) this.dispatch(pass, `fwd${l}`, block, evaluating, slot, rows, count);
  }

  /**
   * Train the first `count` models of `block` for one task each: `epochs` passes over their training sets (all of one
   * size `n`; batches of `batchSize`, the last smaller) with a fresh optimiser. Every member's example order per epoch
   * comes from `members[m].order(epoch)`. The weights stay in `block`.
   */
  async train(block: WeightBlock, members: LevelMember[], n: number, o: LevelTrainOptions): Promise<void> {
    const count = members.length;
    if (count < 1 || count > block.count) throw new RangeError(`Train 1..${block.count} models of this block, not ${count}.`);
    const B = o.batchSize;
    if (B > this.shape.R) throw new RangeError(`A batch of ${B} exceeds the ${this.shape.R} rows this trainer holds.`);
    const steps = Math.ceil(n / B);
    if (steps === 0 || o.epochs === 0) return;
    const L = this.L;
    const stride = steps * B;
    this.ensureTrainIndex(stride);
    this.ensureUniform(steps);
    const bytes = count * this.shape.P * 4;
    {
      const enc = this.device.createCommandEncoder();
      enc.clearBuffer(this.m1, 0, bytes);
      enc.clearBuffer(this.m2, 0, bytes);
      this.submit(enc);
    }
    const f = Math.fround;
    const opt = o.optimizer;
    let acc1 = f(opt.beta1);
    let acc2 = f(opt.beta2);
    const total = o.epochs * steps;
    let queued = 0;
    let doneSteps = 0;
    const inFlight: Promise<void>[] = [];
    const idx = new Int32Array(count * stride);
    const units = new Int32Array(count * stride);
    const u = new ArrayBuffer(steps * UNIFORM_STRIDE);
    for (let epoch = 0; epoch < o.epochs; epoch++) {
      for (let m = 0; m < count; m++) {
        const order = members[m].order(epoch);
        if (order.length !== n) throw new RangeError(`Member ${m}'s epoch has ${order.length} examples, not ${n}.`);
        idx.set(order, m * stride);
        const unitOf = members[m].unitOf;
        for (let i = 0; i < n; i++) units[m * stride + i] = unitOf(order[i]);
      }
      for (let s = 0; s < steps; s++) {
        const c1 = f(1 - acc1);
        const c2 = f(1 - acc2);
        acc1 = f(acc1 * f(opt.beta1));
        acc2 = f(acc2 * f(opt.beta2));
        writeUniform(u, s, {
          row0: s * B,
          rows: Math.min(B, n - s * B),
          head: o.head,
          sgd: opt.kind === 'sgd' ? 1 : 0,
          c1,
          c2,
          b1: f(opt.beta1),
          omb1: f(1 - opt.beta1),
          b2: f(opt.beta2),
          omb2: f(1 - opt.beta2),
          eps: f(opt.epsilon),
          nlr: f(-opt.lr),
          stride,
        });
      }
      // ordered on the queue after the steps already submitted (they read the previous epoch's rows)
      this.device.queue.writeBuffer(this.idx as GPUBuffer, 0, idx);
      this.device.queue.writeBuffer(this.units as GPUBuffer, 0, units);
      this.device.queue.writeBuffer(this.uniform, 0, u);
      for (let s = 0; s < steps; s++) {
        await o.between?.();
        const rows = Math.min(B, n - s * B);
        const enc = this.device.createCommandEncoder();
        const pass = enc.beginComputePass();
        this.forward(pass, block, count, rows, s, false);
        this.dispatch(pass, 'xent', block, false, s, rows, count);
        // from the last layer down: the gradient into the layer below reads this layer's weights before they move
        for (let l = L - 1; l >= 0; l--) {
          if (l > 0) this.dispatch(pass, `gin${l - 1}`, block, false, s, rows, count);
          this.dispatch(pass, `gw${l}`, block, false, s, rows, count);
        }
        pass.end();
        this.submit(enc);
        queued++;
        inFlight.push(
          this.device.queue.onSubmittedWorkDone().then(() => {
            doneSteps++;
            o.onStep?.(doneSteps, total);
          }),
        );
        if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
      }
    }
    await Promise.all(inFlight);
    if (queued !== total) throw new Error(`Trained ${queued} steps of ${total}.`);
  }

  /**
   * The predicted unit (first maximum of the first `head` logits) of every example of `lists[m]` (test examples) by
   * model m of `block`, in chunks of the trainer's rows; one read-back for all.
   */
  async predict(block: WeightBlock, lists: Int32Array[], head: number): Promise<Int32Array[]> {
    const count = lists.length;
    if (count < 1 || count > block.count) throw new RangeError(`Predict with 1..${block.count} models of this block, not ${count}.`);
    const E = Math.max(1, ...lists.map((l) => l.length));
    const R = this.shape.R;
    const chunks = Math.ceil(E / R);
    this.ensureEvalIndex(E);
    this.ensureUniform(chunks);
    const stride = this.evalStride;
    const idx = new Int32Array(count * stride);
    lists.forEach((list, m) => {
      idx.set(list, m * stride);
      if (list.length < E) idx.fill(list.length > 0 ? list[0] : 0, m * stride + list.length, m * stride + E);
    });
    const u = new ArrayBuffer(chunks * UNIFORM_STRIDE);
    for (let c = 0; c < chunks; c++) writeUniform(u, c, { row0: c * R, rows: Math.min(R, E - c * R), head, stride });
    this.device.queue.writeBuffer(this.evalIdx as GPUBuffer, 0, idx);
    this.device.queue.writeBuffer(this.uniform, 0, u);
    const enc = this.device.createCommandEncoder();
    const pass = enc.beginComputePass();
    for (let c = 0; c < chunks; c++) {
      const rows = Math.min(R, E - c * R);
      this.forward(pass, block, count, rows, c, true);
      this.dispatch(pass, 'argmax', block, true, c, rows, count);
    }
    pass.end();
    const bytes = count * stride * 4;
    const staging = this.staging as GPUBuffer;
    enc.copyBufferToBuffer(this.pred as GPUBuffer, 0, staging, 0, bytes);
    this.submit(enc);
    gpuCounters().readbacks++;
    await staging.mapAsync(GPUMapMode.READ, 0, bytes);
    const all = new Int32Array(staging.getMappedRange(0, bytes).slice(0));
    staging.unmap();
    return lists.map((list, m) => all.slice(m * stride, m * stride + list.length));
  }

  /** Free every buffer of this trainer (blocks are freed by their owner). */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of this.owned) b.destroy();
  }
}

interface UniformFields {
  row0: number;
  rows: number;
  head: number;
  sgd?: number;
  c1?: number;
  c2?: number;
  b1?: number;
  omb1?: number;
  b2?: number;
  omb2?: number;
  eps?: number;
  nlr?: number;
  stride: number;
}

/** One dispatch group's uniform (level-kernels.ts struct U) at slot `s`. */
function writeUniform(buf: ArrayBuffer, s: number, f: UniformFields): void {
  const u32 = new Uint32Array(buf, s * UNIFORM_STRIDE, 16);
  const f32 = new Float32Array(buf, s * UNIFORM_STRIDE, 16);
  u32[0] = f.row0;
  u32[1] = f.rows;
  u32[2] = f.head;
  u32[3] = f.sgd ?? 0;
  f32[4] = f.c1 ?? 1;
  f32[5] = f.c2 ?? 1;
  f32[6] = f.b1 ?? 0;
  f32[7] = f.omb1 ?? 0;
  f32[8] = f.b2 ?? 0;
  f32[9] = f.omb2 ?? 0;
  f32[10] = f.eps ?? 0;
  f32[11] = f.nlr ?? 0;
  u32[12] = f.stride;
}
