/**
 * Benchmark of the ordering generators (run: `npx tsx scripts/bench-orderings.ts` or `npm run bench:orderings`).
 *
 * Data: cosine similarities of seeded random 512-d Gaussian embeddings. Every figure is the median over
 * repeated runs after a warm-up. Measures
 *   - EDGE (hard + easy together, one `edgeOrderings` call) on 100 classes / 10 tasks and 1000 / 10;
 *   - EDGE+ (both directions, from the EDGE results) on 100 / 10;
 *   - full enumeration of Ω for 10 classes / 5 tasks (113 400 orderings) with `forEachOrdering`, bare and with
 *     exact scoring (`exactExtremes`);
 *   - the Python peer (scipy linkage + the same EDGE construction, scripts/make-edge-fixtures.py --bench).
 * Targets: EDGE 100×10 ≤ 5 ms, 1000×10 ≤ 100 ms; EDGE+ 100×10 ≤ 100 ms; enumeration ≥ 10^6 orderings/s.
 * The LAST line printed is the JSON summary.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forEachOrdering } from '../src/core/orderings/enumerate';
import type { SquareMatrix } from '../src/core/orderings/types';
import { edgeOrderings } from '../src/core/protocols/edge';
import { edgePlus } from '../src/core/protocols/edge-plus';
import { exactExtremes } from '../src/core/protocols/exact';

/** mulberry32 uniform stream with Box–Muller normals (bench data only). */
function normalStream(seed: number): () => number {
  let a = seed >>> 0;
  const u = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** Cosine similarity of n seeded random dim-d embeddings. */
function randomCosine(n: number, dim: number, seed: number): SquareMatrix {
  const next = normalStream(seed);
  const x = new Float64Array(n * dim);
  for (let i = 0; i < n; i++) {
    let norm = 0;
    for (let q = 0; q < dim; q++) {
      const v = next();
      x[i * dim + q] = v;
      norm += v * v;
    }
    norm = Math.sqrt(norm);
    for (let q = 0; q < dim; q++) x[i * dim + q] /= norm;
  }
  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    data[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      let s = 0;
      for (let q = 0; q < dim; q++) s += x[i * dim + q] * x[j * dim + q];
      data[i * n + j] = s;
      data[j * n + i] = s;
    }
  }
  return { n, data };
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Median milliseconds of `fn` over `reps` runs after `warm` warm-up runs. */
function timeMs(fn: () => unknown, reps: number, warm = 3): number {
  for (let i = 0; i < warm; i++) fn();
  const t: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  return median(t);
}

const fmt = (x: number, d = 2): string => x.toFixed(d);

const sim100 = randomCosine(100, 512, 1);
const sim1000 = randomCosine(1000, 512, 2);
const sizes100 = Array(10).fill(10);
const sizes1000 = Array(10).fill(100);

const edge100 = timeMs(() => edgeOrderings(sim100, sizes100), 51, 10);
const edge1000 = timeMs(() => edgeOrderings(sim1000, sizes1000), 11, 3);
const e100 = edgeOrderings(sim100, sizes100);
const plus100 = timeMs(() => edgePlus(e100, sim100), 21, 3);
const plusRes = edgePlus(e100, sim100);

const sizes10 = [2, 2, 2, 2, 2];
const sim10 = randomCosine(10, 512, 3);
let visited = 0;
const enumMs = timeMs(
  () => {
    visited = forEachOrdering(sizes10, () => {});
  },
  21,
  5,
);
const exactMs = timeMs(() => exactExtremes(sim10, sizes10), 21, 5);
const enumeratePerSecond = visited / (enumMs / 1000);
const exactPerSecond = visited / (exactMs / 1000);

console.log(`EDGE hard+easy, 100 classes / 10 tasks:   ${fmt(edge100, 3)} ms (median of 51; target ≤ 5 ms)`);
console.log(
  `  S hard ${fmt(e100.hard.score, 4)} (g=${e100.hard.granularity}, ${e100.hard.variant}), S easy ${fmt(e100.easy.score, 4)} (g=${e100.easy.granularity}, ${e100.easy.variant})`,
);
console.log(`EDGE hard+easy, 1000 classes / 10 tasks:  ${fmt(edge1000)} ms (median of 11; target ≤ 100 ms)`);
console.log(`EDGE+ both directions, 100 / 10:          ${fmt(plus100)} ms (median of 21; target ≤ 100 ms)`);
console.log(
  `  hard ${fmt(plusRes.hard.startScore, 4)} → ${fmt(plusRes.hard.score, 4)} (${plusRes.hard.moves.swap} swaps, ${plusRes.hard.moves.relocate + plusRes.hard.moves.reverse} task moves); ` +
    `easy ${fmt(plusRes.easy.startScore, 4)} → ${fmt(plusRes.easy.score, 4)} (${plusRes.easy.moves.swap} swaps, ${plusRes.easy.moves.relocate + plusRes.easy.moves.reverse} task moves)`,
);
console.log(
  `Enumeration, 10 classes / 5 tasks (${visited} orderings): ${fmt(enumMs)} ms → ${(enumeratePerSecond / 1e6).toFixed(1)} M orderings/s (target ≥ 1 M/s)`,
);
console.log(`  with exact scoring (exactExtremes): ${fmt(exactMs)} ms → ${(exactPerSecond / 1e6).toFixed(1)} M orderings/s`);

// Python peer: scipy linkage + the same EDGE construction (scripts/make-edge-fixtures.py --bench)
const here = dirname(fileURLToPath(import.meta.url));
const py = spawnSync('python3', [join(here, 'make-edge-fixtures.py'), '--bench'], { encoding: 'utf8', timeout: 300_000 });
if (py.status === 0) {
  try {
    const r = JSON.parse(py.stdout.trim().split('\n').pop() ?? '{}');
    console.log(`Python peer (Python ${r.python}, numpy ${r.numpy}, scipy ${r.scipy}), medians:`);
    for (const key of ['100x10', '1000x10']) {
      if (r[key]) console.log(`  EDGE ${key}: ${fmt(r[key].edgeMs)} ms (scipy linkage alone ${fmt(r[key].linkageMs)} ms)`);
    }
  } catch {
    console.log(`Python peer: unreadable output: ${py.stdout.slice(0, 200)}`);
  }
} else {
  console.log(`Python peer not measured (python3 with numpy/scipy unavailable: ${(py.error?.message ?? py.stderr ?? '').trim().split('\n').pop()})`);
}

const round = (x: number, d: number): number => Number(x.toFixed(d));
console.log(
  JSON.stringify({
    edgeMs: { '100x10': round(edge100, 3), '1000x10': round(edge1000, 2) },
    edgePlusMs: { '100x10': round(plus100, 2) },
    enumeratePerSecond: Math.round(enumeratePerSecond),
    exactPerSecond: Math.round(exactPerSecond),
  }),
);
