/**
 * The ground truth level by level on WebGPU (docs/architecture.md "Ground-truth scheduling", docs/science.md appendix
 * D.2): every prefix of one depth of the trie trains at once in level-mlp.ts's kernels, from copies of its parent's
 * trained weights that never leave the GPU; each level's models are then evaluated together and their predictions
 * read back once. The default ground truth (15, 90 and 90 prefixes) is 90 steps deep: about 9 dispatches a step,
 * whatever the number of models, where tfjs needs about 170 per model and step.
 *
 * The same draws as every other path: the initial weights of the experiment seed, each task's batch order from its
 * own 'batches' stream (`epochOrder`), the strategy's training set and its state between tasks (plain arrays, kept
 * here per trained prefix for its children). Only strategies whose training is the plain loss on their training set,
 * and whose prediction is the network's arg-max, take this path (`levelRefusal` says why another does not); they
 * stay on tfjs.
 */
import { cloneState } from '../checkpoint';
import { epochOrder, imageSize } from '../dataset';
import { predictionTable, sortedUnion } from '../evaluate';
import type { NetworkSpec } from '../models';
import type { RunPlan } from '../plan';
import { createStrategy, type Strategy, type TaskContext } from '../strategies/index';
import type { ProgressEvent, ResolvedTrainConfig, StrategyState, TrainDataset } from '../types';
import type { PrefixNode } from '../../core/ground-truth/prefix-plan';
import { levelGpuDevice, type GpuHandle } from './device';
import { LevelMlp, type WeightBlock } from './level-mlp';
import { levelSettingsRefusal } from './level-rule';

/** Rows the activation buffers hold per model: a batch, and evaluation in chunks of this many examples. */
const EVAL_ROWS = 256;

/** GPU memory level-batched training may use at most (weights of two levels, Adam's moments, activations). */
export const LEVEL_BUDGET_BYTES = 1.5 * 2 ** 30;

/** Why level-batched training does not apply to these runs, or null when it does. */
export function levelRefusal(c: {
  spec: NetworkSpec;
  augment: unknown;
  strategy: Pick<Strategy, 'id' | 'lossTerms' | 'adjustGradients' | 'afterStep' | 'predictScores'>;
  strategyOptions?: unknown;
}): string | null {
  const s = c.strategy;
  const why = levelSettingsRefusal({ model: c.spec.kind, augment: c.augment, strategy: s.id, strategyOptions: c.strategyOptions });
  // a strategy with a hook the rule does not know of stays on tfjs too
  return why ?? (s.lossTerms || s.adjustGradients || s.afterStep || s.predictScores ? `${s.id} needs more than the plain loss, so it trains on tfjs` : null);
}

/** The GPU side of a level-batched ground truth: the kernels, the device and how many models train at once. */
export interface LevelRun {
  mlp: LevelMlp;
  gpu: GpuHandle;
  capacity: number;
}

/**
 * Kernels for this network and dataset on the device WebGPU gives, holding up to the trie's widest level at once.
 * Null with the reason where the path cannot run: no adapter, or the trie's widest level does not fit the budget (a
 * deep trie: the shared path then trains on tfjs, prefix by prefix).
 */
export async function openLevelRun(
  dataset: TrainDataset,
  spec: NetworkSpec,
  cfg: ResolvedTrainConfig,
  nodes: PrefixNode[],
  /** models at once at most (the shared path's `population` when a number; default: a whole level) */
  most = Infinity,
): Promise<{ run: LevelRun | null; why: string | null }> {
  const gpu = await levelGpuDevice();
  if (!gpu) return { run: null, why: 'no WebGPU adapter' };
  const widths = new Map<number, number>();
  for (const n of nodes) widths.set(n.depth, (widths.get(n.depth) ?? 0) + 1);
  const widest = Math.max(...widths.values());
  const pairs = Math.max(...[...widths.keys()].map((d) => (widths.get(d) ?? 0) + (widths.get(d - 1) ?? 0)));
  const rows = Math.max(cfg.batchSize, EVAL_ROWS);
  const P = LevelMlp.paramFloats(spec) * 4;
  const limits = gpu.device.limits;
  const bindable = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
  const data = dataset.train.images.byteLength;
  if (data > bindable || dataset.test.images.byteLength > bindable)
    return { run: null, why: `the training images (${Math.round(data / 2 ** 20)} MB) exceed what one GPU buffer binds here` };
  const scratch = LevelMlp.bytesPerModel(spec, rows) - 2 * P;
  // the models of two levels live at once (each level's parents until they are copied); scratch for one chunk
  const capacity = Math.max(
    1,
    Math.min(
      widest,
      Math.floor(bindable / P),
      Math.floor(bindable / (rows * 4 * Math.max(...[...(spec.hidden ?? []), spec.outputs].map((n) => Math.ceil(n / 8) * 8)))),
    ),
  );
  const need = pairs * P + capacity * scratch;
  if (need > LEVEL_BUDGET_BYTES)
    return {
      run: null,
      why: `the trie's widest levels (${widest} prefixes) need ${Math.round(need / 2 ** 20)} MB of GPU memory, more than the ${Math.round(LEVEL_BUDGET_BYTES / 2 ** 20)} MB budget`,
    };
  const mlp = await LevelMlp.create(gpu, spec, { train: dataset.train.images, test: dataset.test.images, size: imageSize(dataset) }, capacity, rows);
  return { run: { mlp, gpu, capacity }, why: null };
}

/** What the level loop needs of shared training (shared-train.ts): its plans, its order and what it does with a result. */
export interface LevelContext {
  dataset: TrainDataset;
  spec: NetworkSpec;
  base: ResolvedTrainConfig;
  cfgs: ResolvedTrainConfig[];
  plans: RunPlan[];
  nodes: PrefixNode[];
  /** the first rank among the orderings a node serves (lower trains first) */
  priority(node: PrefixNode): number;
  initialWeights: Float32Array[];
  initialState: StrategyState;
  /** a task context over some network (the level strategies never read its weights) */
  taskContext(t: number, cfg: ResolvedTrainConfig, plan: RunPlan): TaskContext;
  pausePoint(): Promise<void>;
  /** row `node.depth` of R for every ordering through `node`, from its predictions (`predictionTable`) */
  record(node: PrefixNode, predAt: Int32Array): void;
  /** the node is trained and evaluated: finish its orderings that end here */
  complete(node: PrefixNode): void;
  onStep(e: ProgressEvent, models: number, steps: number): void;
  onPredictions(n: number): void;
}

/** The untrained model's predictions of `examples` (b_j with the 'all' head), on the GPU. */
export async function levelInitialPredictions(
  run: LevelRun,
  weights: Float32Array[],
  examples: Int32Array,
  width: number,
  testSize: number,
): Promise<Int32Array> {
  const block = run.mlp.newBlock(1);
  try {
    run.mlp.setWeights(block, 0, weights);
    const [pred] = await run.mlp.predict(block, [examples], width);
    return predictionTable(testSize, examples, pred);
  } finally {
    run.mlp.freeBlock(block);
  }
}

interface Member {
  node: PrefixNode;
  strategy: Strategy;
  ctx: TaskContext;
  set: Int32Array;
  cfg: ResolvedTrainConfig;
  plan: RunPlan;
}

/**
 * Train every node, level by level, in the order of `priority` within a level; a level's models of one training-set
 * size train together (lockstep needs equal step counts), at most `capacity` at a time.
 */
export async function trainByLevels(run: LevelRun, c: LevelContext): Promise<void> {
  const { mlp } = run;
  const depth = Math.max(...c.nodes.map((n) => n.depth));
  const initial = mlp.newBlock(1);
  mlp.setWeights(initial, 0, c.initialWeights);
  let where = new Map<PrefixNode, [WeightBlock, number]>();
  let blocks: WeightBlock[] = [];
  const states = new Map<PrefixNode, StrategyState>();
  const testSize = c.dataset.test.labels.length;
  try {
    for (let d = 0; d <= depth; d++) {
      const level = c.nodes.filter((n) => n.depth === d && c.priority(n) !== Infinity).sort((a, b) => c.priority(a) - c.priority(b) || a.index - b.index);
      const members: Member[] = [];
      for (const node of level) {
        const o0 = node.orderings[0];
        const cfg = c.cfgs[o0];
        const plan = c.plans[o0];
        const strategy = createStrategy(cfg.strategy, cfg.strategyOptions as never);
        strategy.setState(cloneState(node.parent ? (states.get(node.parent) as StrategyState) : c.initialState));
        const ctx = c.taskContext(d, cfg, plan);
        await strategy.beforeTask(ctx);
        members.push({ node, strategy, ctx, set: strategy.trainingSet(ctx) ?? new Int32Array(0), cfg, plan });
      }
      // one population per training-set size, in priority order, at most `capacity` models each
      const chunks: Member[][] = [];
      const open = new Map<number, Member[]>();
      for (const m of members) {
        let chunk = open.get(m.set.length);
        if (!chunk || chunk.length >= run.capacity) {
          chunk = [];
          open.set(m.set.length, chunk);
          chunks.push(chunk);
        }
        chunk.push(m);
      }
      const next = new Map<PrefixNode, [WeightBlock, number]>();
      const nextBlocks: WeightBlock[] = [];
      for (const chunk of chunks) {
        await c.pausePoint();
        const block = mlp.newBlock(chunk.length);
        nextBlocks.push(block);
        mlp.copyWeights(
          block,
          chunk.map((m, i) => {
            const [from, slot] = m.node.parent ? (where.get(m.node.parent) as [WeightBlock, number]) : [initial, 0];
            return [from, slot, i];
          }),
        );
        chunk.forEach((m, i) => next.set(m.node, [block, i]));
        await trainChunk(run, c, chunk, block, d);
        for (const m of chunk) await m.strategy.afterTask(m.ctx);
        // one prediction pass per model over the test examples that can score (the seen tasks', or all with the 'all' head)
        const head = chunk[0].ctx.headWidth;
        const lists = chunk.map((m) => {
          const K = m.plan.tasks.length;
          return sortedUnion(m.plan.tasks.slice(0, c.base.head === 'all' ? K : d + 1).map((tp) => tp.test));
        });
        const preds = await mlp.predict(block, lists, head);
        chunk.forEach((m, i) => {
          c.onPredictions(lists[i].length);
          c.record(m.node, predictionTable(testSize, lists[i], preds[i]));
          if (m.node.children.length > 0) states.set(m.node, cloneState(m.strategy.getState()));
          m.strategy.dispose();
          c.complete(m.node);
        });
      }
      // this level's parents are copied: let them go (and their states)
      for (const b of blocks) mlp.freeBlock(b);
      for (const n of where.keys()) states.delete(n);
      where = next;
      blocks = nextBlocks;
    }
  } finally {
    for (const b of blocks) mlp.freeBlock(b);
    mlp.freeBlock(initial);
  }
}

/** One chunk's task: every member's epochs of its own batch order, in lockstep, a fresh optimiser. */
async function trainChunk(run: LevelRun, c: LevelContext, chunk: Member[], block: WeightBlock, d: number): Promise<void> {
  const cfg = c.base;
  const n = chunk[0].set.length;
  const epochs = d === 0 ? cfg.firstTaskEpochs : cfg.epochs;
  if (n === 0 || epochs === 0) return;
  const steps = Math.ceil(n / cfg.batchSize);
  const rngs = chunk.map((m) => m.ctx.rng('batches'));
  const tasks = chunk[0].ctx.taskCount;
  await run.mlp.train(
    block,
    chunk.map((m, i) => ({ order: () => epochOrder(rngs[i], m.set), unitOf: m.ctx.unitOf })),
    n,
    {
      epochs,
      batchSize: cfg.batchSize,
      head: chunk[0].ctx.headWidth,
      optimizer: { kind: cfg.optimizer, lr: cfg.lr, beta1: cfg.beta1, beta2: cfg.beta2, epsilon: cfg.epsilon },
      between: () => c.pausePoint(),
      onStep: (done) => {
        const epoch = Math.floor((done - 1) / steps);
        const step = done - epoch * steps;
        c.onStep({ task: d, epoch, step, steps, loss: NaN, accuracy: NaN, tasks, epochs }, chunk.length, done);
      },
    },
  );
}
