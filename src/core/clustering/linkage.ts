/**
 * Agglomerative (hierarchical) clustering of a dissimilarity matrix, returning a scipy-compatible linkage matrix Z
 * (docs/science.md §1, EDGE: "complete-linkage agglomerative clustering on 1 − Sim"). Z has n−1 rows (idx1, idx2,
 * distance, count), row-major in a Float64Array of length 4(n−1); leaves are 0..n−1 and row i's cluster has id n+i,
 * as `scipy.cluster.hierarchy.linkage(squareform(D), method)` numbers them. Only the upper triangle is read (scipy's
 * `squareform` does the same after its symmetry check); the diagonal is ignored.
 */
import type { SquareMatrix } from '../orderings/types';

export type LinkageMethod = 'single' | 'complete' | 'average';
export const LINKAGE_METHODS: readonly LinkageMethod[] = ['single', 'complete', 'average'];

/** A linkage matrix: (n−1)×4 row-major (idx1, idx2, distance, count), as scipy's Z. */
export type LinkageMatrix = Float64Array;

/** Number of observations of a linkage matrix (n = rows + 1). */
export function linkageSize(z: LinkageMatrix): number {
  return z.length / 4 + 1;
}

/** Z as nested rows [[idx1, idx2, distance, count], …] (for JSON output and tests). */
export function linkageRows(z: LinkageMatrix): number[][] {
  const rows: number[][] = [];
  for (let i = 0; i < z.length; i += 4) rows.push([z[i], z[i + 1], z[i + 2], z[i + 3]]);
  return rows;
}

/** Copy the upper triangle into a full symmetric working matrix (diagonal 0), rejecting non-finite entries. */
function workingMatrix(dist: SquareMatrix): Float64Array {
  const { n, data } = dist;
  if (data.length !== n * n) throw new RangeError(`The dissimilarity matrix must be ${n}×${n}; it has ${data.length} entries.`);
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const v = data[i * n + j];
      if (!Number.isFinite(v)) {
        throw new RangeError(`Dissimilarity (${i}, ${j}) is ${v}; every entry must be a finite number.`);
      }
      d[i * n + j] = v;
      d[j * n + i] = v;
    }
  }
  return d;
}

/** scipy `nn_chain` for complete / average linkage: unsorted, unlabelled merges (x < y slot ids). */
function nnChain(dist: SquareMatrix, method: 'complete' | 'average'): Float64Array {
  const n = dist.n;
  const D = workingMatrix(dist);
  const z = new Float64Array(4 * (n - 1));
  const size = new Int32Array(n).fill(1);
  const chain = new Int32Array(n);
  let chainLength = 0;
  const average = method === 'average';
  for (let k = 0; k < n - 1; k++) {
    if (chainLength === 0) {
      chainLength = 1;
      for (let i = 0; i < n; i++) {
        if (size[i] > 0) {
          chain[0] = i;
          break;
        }
      }
    }
    let x = 0;
    let y = 0;
    let currentMin = Infinity;
    // Follow nearest neighbours until two mutual nearest neighbours are found.
    for (;;) {
      x = chain[chainLength - 1];
      const row = x * n;
      if (chainLength > 1) {
        y = chain[chainLength - 2];
        currentMin = D[row + y];
      } else {
        currentMin = Infinity;
      }
      for (let i = 0; i < n; i++) {
        if (size[i] === 0 || i === x) continue;
        const v = D[row + i];
        if (v < currentMin) {
          currentMin = v;
          y = i;
        }
      }
      if (chainLength > 1 && y === chain[chainLength - 2]) break;
      chain[chainLength++] = y;
    }
    chainLength -= 2;
    if (x > y) {
      const t = x;
      x = y;
      y = t;
    }
    const nx = size[x];
    const ny = size[y];
    z[4 * k] = x;
    z[4 * k + 1] = y;
    z[4 * k + 2] = currentMin;
    z[4 * k + 3] = nx + ny;
    size[x] = 0;
    size[y] = nx + ny;
    const rx = x * n;
    const ry = y * n;
    for (let i = 0; i < n; i++) {
      if (size[i] === 0 || i === y) continue;
      const dxi = D[rx + i];
      const dyi = D[ry + i];
      const v = average ? (nx * dxi + ny * dyi) / (nx + ny) : dxi > dyi ? dxi : dyi;
      D[ry + i] = v;
      D[i * n + y] = v;
    }
  }
  return z;
}

/** scipy `mst_single_linkage`: Prim's MST from point 0; unsorted, unlabelled merges (point ids). */
function mstSingle(dist: SquareMatrix): Float64Array {
  const { n, data } = dist;
  if (data.length !== n * n) throw new RangeError(`The dissimilarity matrix must be ${n}×${n}; it has ${data.length} entries.`);
  const z = new Float64Array(4 * (n - 1));
  const merged = new Uint8Array(n);
  const D = new Float64Array(n).fill(Infinity);
  let x = 0;
  let y = 0;
  for (let k = 0; k < n - 1; k++) {
    let currentMin = Infinity;
    merged[x] = 1;
    for (let i = 0; i < n; i++) {
      if (merged[i] === 1) continue;
      // the upper-triangle entry of the pair (x, i), as squareform would give it
      const v = x < i ? data[x * n + i] : data[i * n + x];
      if (!Number.isFinite(v)) {
        throw new RangeError(`Dissimilarity (${Math.min(x, i)}, ${Math.max(x, i)}) is ${v}; every entry must be a finite number.`);
      }
      if (D[i] > v) D[i] = v;
      if (D[i] < currentMin) {
        y = i;
        currentMin = D[i];
      }
    }
    z[4 * k] = x;
    z[4 * k + 1] = y;
    z[4 * k + 2] = currentMin;
    x = y;
  }
  return z;
}

/**
 * scipy's final step: stable sort of the merges by distance (numpy `argsort(kind='mergesort')`), then
 * `label`: union-find relabelling to cluster ids n+i, smaller id first, and the cluster sizes.
 */
function sortAndLabel(raw: Float64Array, n: number): LinkageMatrix {
  const m = n - 1;
  const order = Array.from({ length: m }, (_, i) => i);
  order.sort((a, b) => raw[4 * a + 2] - raw[4 * b + 2]); // Array.prototype.sort is stable (ES2019)
  const z = new Float64Array(4 * m);
  const parent = new Int32Array(2 * n - 1);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const size = new Int32Array(2 * n - 1).fill(1);
  let nextLabel = n;
  const find = (start: number): number => {
    let r = start;
    while (parent[r] !== r) r = parent[r];
    let p = start;
    while (parent[p] !== r) {
      const next = parent[p];
      parent[p] = r;
      p = next;
    }
    return r;
  };
  for (let i = 0; i < m; i++) {
    const src = order[i];
    const xr = find(raw[4 * src]);
    const yr = find(raw[4 * src + 1]);
    z[4 * i] = xr < yr ? xr : yr;
    z[4 * i + 1] = xr < yr ? yr : xr;
    z[4 * i + 2] = raw[4 * src + 2];
    parent[xr] = nextLabel;
    parent[yr] = nextLabel;
    size[nextLabel] = size[xr] + size[yr];
    z[4 * i + 3] = size[nextLabel];
    nextLabel++;
  }
  return z;
}

/**
 * `scipy.cluster.hierarchy.linkage(squareform(dist), method)` for method single, complete or average, ported step
 * for step so that Z equals scipy's, ties included. Complete / average: the nearest-neighbour chain (scipy
 * `nn_chain`); the scan for the chain tip's nearest neighbour starts from the previous chain element (a tie goes to
 * it, which prevents cycles), then takes the first strictly smaller distance in index order; the pair is recorded
 * smaller index first, the smaller slot retired, the larger holding the new cluster; Lance–Williams updates
 * (`max(d_xi, d_yi)`; `(n_x d_xi + n_y d_yi)/(n_x+n_y)`). Single: Prim's minimum spanning tree from point 0 (scipy
 * `mst_single_linkage`). Then a stable sort by distance and scipy's `label` relabelling (union-find: each row's ids
 * the current roots of its two endpoints, smaller first). O(N²) time and N² memory; N = 1000 takes a few
 * milliseconds. With n = 1, Z is empty.
 */
export function linkage(dist: SquareMatrix, method: LinkageMethod = 'complete'): LinkageMatrix {
  const n = dist.n;
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`Clustering needs at least one item; got n = ${n}.`);
  if (n === 1) return new Float64Array(0);
  let raw: Float64Array;
  if (method === 'single') raw = mstSingle(dist);
  else if (method === 'complete' || method === 'average') raw = nnChain(dist, method);
  else throw new RangeError(`Unknown linkage method "${String(method)}"; use single, complete or average.`);
  return sortAndLabel(raw, n);
}
