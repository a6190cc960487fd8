/**
 * An ordering O (docs/science.md §1): an ordered partition of the classes 0..N-1 into K tasks.
 * `tasks[t]` lists the class indices of task t (0-based). The order *inside* a task does not matter;
 * canonical form keeps each task sorted ascending. The order *of* tasks does matter.
 */
export type Ordering = number[][];

/** Task sizes m_1..m_K (all ≥ 1, summing to N). */
export type TaskSizes = number[];

/**
 * A square class×class matrix (similarity, or dissimilarity), row-major in a Float64Array.
 * `data[i * n + j]` is entry (i, j).
 */
export interface SquareMatrix {
  n: number;
  data: Float64Array;
}

/** A protocol's output sequence, as the CLI's public `sequences` field (docs/architecture.md, contracts). */
export interface Sequence {
  protocol: string; // 'rs' | 'edge' | 'edge+' | 'exact' | 'as' | 'ms'
  label: string; // e.g. 'RS seed 0', 'EDGE hard'
  tasks: number[][];
  order: number[]; // the flat class order, tasks concatenated
  score: number; // S(O), paper Eq. 5
}
