/**
 * Flat clusters from a linkage matrix, as `scipy.cluster.hierarchy.fcluster(Z, g, criterion="maxclust")`
 * (docs/science.md §1, EDGE: "clustering … into g clusters").
 *
 * Ported from scipy's `_hierarchy.pyx` (`get_max_dist_for_each_cluster`, `cluster_maxclust_monocrit`,
 * `cluster_monocrit`), so the labels are scipy's exactly, numbering included:
 * - MD[i] = the largest merge distance inside cluster n+i (for the monotone linkages complete, average and
 *   single this is just Z[i, 2]);
 * - if g ≥ n every item is its own cluster, labelled 1..n in index order;
 * - otherwise the cut threshold is the smallest MD[i] (binary search over i) whose cut gives at most g clusters
 *   (a subtree with MD ≤ threshold is one cluster, a leaf not inside such a subtree is a singleton). With tied
 *   merge distances this can give fewer than g clusters, as scipy does;
 * - labels 1, 2, … are handed out in scipy's depth-first order from the root (left internal child first, then
 *   right internal child, then leaf children).
 *
 * EDGE cuts one dendrogram at several granularities: `createCutter` computes MD (and the leaf order) once and
 * each cut then costs O(n log n).
 */
import { linkageSize, type LinkageMatrix } from './linkage';

/** MD[i] = max merge distance within cluster n+i (scipy `get_max_dist_for_each_cluster`). */
export function maxDistPerCluster(z: LinkageMatrix, n: number): Float64Array {
  const md = new Float64Array(Math.max(0, n - 1));
  // Children always have smaller ids than their parent in a valid Z, so one forward pass is a post-order.
  for (let i = 0; i < n - 1; i++) {
    let m = z[4 * i + 2];
    const l = z[4 * i];
    const r = z[4 * i + 1];
    if (l >= n && md[l - n] > m) m = md[l - n];
    if (r >= n && md[r - n] > m) m = md[r - n];
    md[i] = m;
  }
  return md;
}

function checkLinkage(z: LinkageMatrix, n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`The number of items must be a positive integer; got ${n}.`);
  if (z.length !== 4 * (n - 1)) {
    throw new RangeError(`A linkage matrix for ${n} items has ${n - 1} rows; this one has ${z.length / 4}.`);
  }
}

/** Number of flat clusters a cut at `thresh` gives, stopping early once it exceeds `maxNc`. */
function countClusters(z: LinkageMatrix, md: Float64Array, n: number, thresh: number, maxNc: number, stack: Int32Array, visited: Uint8Array): number {
  visited.fill(0);
  let nc = 0;
  let k = 0;
  stack[0] = 2 * n - 2;
  while (k >= 0) {
    const root = stack[k] - n;
    const lc = z[4 * root];
    const rc = z[4 * root + 1];
    if (md[root] <= thresh) {
      nc++;
      if (nc > maxNc) return nc;
      k--;
      visited[lc] = 1;
      visited[rc] = 1;
      continue;
    }
    // the left child, then the right: an unvisited internal child is descended into, an unvisited leaf is a singleton
    let next = -1;
    for (let side = 0; side < 2 && next < 0; side++) {
      const c = z[4 * root + side];
      if (visited[c]) continue;
      visited[c] = 1;
      if (c >= n) next = c;
      else if (++nc > maxNc) return nc;
    }
    if (next >= 0) stack[++k] = next;
    else k--;
  }
  return nc;
}

/** scipy `cluster_monocrit`: labels 1.. for the cut at `cutoff`, in scipy's depth-first order. */
function labelCut(z: LinkageMatrix, md: Float64Array, n: number, cutoff: number, stack: Int32Array, visited: Uint8Array): Int32Array {
  const t = new Int32Array(n);
  visited.fill(0);
  let nCluster = 0;
  let leader = -1;
  let k = 0;
  stack[0] = 2 * n - 2;
  while (k >= 0) {
    const root = stack[k] - n;
    if (leader === -1 && md[root] <= cutoff) {
      leader = root;
      nCluster++;
    }
    // descend into the first unvisited internal child (left, then right); once both are done, label the leaf children
    let next = -1;
    for (let side = 0; side < 2 && next < 0; side++) {
      const c = z[4 * root + side];
      if (c >= n && !visited[c]) next = c;
    }
    if (next >= 0) {
      visited[next] = 1;
      stack[++k] = next;
      continue;
    }
    for (let side = 0; side < 2; side++) {
      const c = z[4 * root + side];
      if (c >= n) continue;
      if (leader === -1) nCluster++;
      t[c] = nCluster;
    }
    if (leader === root) leader = -1;
    k--;
  }
  return t;
}

/** One dendrogram, cut cheaply at many granularities. */
export interface DendrogramCutter {
  readonly n: number;
  /** `fcluster(Z, g, 'maxclust')`: labels 1..(≤ g) per item. */
  maxclust(g: number): Int32Array;
  /** scipy `leaves_list(Z)`: the items in dendrogram (left-to-right) order. */
  leafOrder(): Int32Array;
}

/** Prepare cuts of one linkage matrix (MD computed once). */
export function createCutter(z: LinkageMatrix, n: number = linkageSize(z)): DendrogramCutter {
  checkLinkage(z, n);
  const md = maxDistPerCluster(z, n);
  const stack = new Int32Array(Math.max(1, n));
  const visited = new Uint8Array(Math.max(1, 2 * n - 1));
  let leaves: Int32Array | null = null;
  return {
    n,
    maxclust(g: number): Int32Array {
      if (!Number.isInteger(g) || g < 1) throw new RangeError(`The number of clusters must be a positive integer; got ${g}.`);
      if (g >= n) {
        const t = new Int32Array(n);
        for (let i = 0; i < n; i++) t[i] = i + 1;
        return t;
      }
      // scipy's bisection: the smallest index whose threshold is legal (upper starts at the sentinel n−1,
      // never read because MD[n−2], the root, always gives one cluster ≤ g)
      let lower = -1;
      let upper = n - 1;
      while (upper - lower > 1) {
        const i = (lower + upper) >> 1;
        if (countClusters(z, md, n, md[i], g, stack, visited) > g) lower = i;
        else upper = i;
      }
      return labelCut(z, md, n, md[upper], stack, visited);
    },
    leafOrder(): Int32Array {
      if (!leaves) leaves = leavesList(z, n);
      return leaves.slice();
    },
  };
}

/** `fcluster(Z, g, criterion="maxclust")` — equal to scipy's labels (1-based). */
export function fclusterMaxclust(z: LinkageMatrix, n: number, g: number): Int32Array {
  return createCutter(z, n).maxclust(g);
}

/** `fcluster(Z, g, 'maxclust')` for several g from one dendrogram (same order as `gs`). */
export function fclusterMaxclustMany(z: LinkageMatrix, n: number, gs: readonly number[]): Int32Array[] {
  const cutter = createCutter(z, n);
  return gs.map((g) => cutter.maxclust(g));
}

/** scipy `leaves_list(Z)`: leaves in left-to-right dendrogram order (left child before right child). */
export function leavesList(z: LinkageMatrix, n: number = linkageSize(z)): Int32Array {
  checkLinkage(z, n);
  const out = new Int32Array(n);
  if (n === 1) return out;
  let p = 0;
  const stack: number[] = [2 * n - 2];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node < n) {
      out[p++] = node;
      continue;
    }
    const r = node - n;
    stack.push(z[4 * r + 1]); // right child visited after the left one
    stack.push(z[4 * r]);
  }
  return out;
}
