/**
 * The trie of task prefixes of a set of orderings (docs/architecture.md "Ground-truth scheduling"). By the prefix
 * rule (training-seeds.ts) every random choice of task t comes from the experiment seed and tasks 0..t, and the
 * output units of those tasks' classes are the same in every ordering that starts with them (engine/plan.ts); so
 * orderings that begin with the same tasks train them identically, and training each node once (from its parent's
 * model) gives every ordering the model its naive run would have had. Example: Fashion-MNIST 0–5 in 3 tasks of 2
 * (90 orderings): 15 + 90 + 90 = 195 nodes against 270 tasks naively (1.38×). The last task never shares (the two
 * before fix it), so the saving grows with the tasks: 8 classes in 4 tasks of 2 train 5,488 tasks, not 10,080 (1.84×).
 */
export interface PrefixNode {
  /** depth-first index (position in `PrefixPlan.nodes`) */
  index: number;
  /** the task this node trains (0-based) */
  depth: number;
  /** tasks 0..depth, each sorted ascending */
  tasks: number[][];
  /** "0,1|2,3": the prefix as an ordering key */
  key: string;
  parent: PrefixNode | null;
  children: PrefixNode[];
  /** indices (into the orderings planned) of the orderings through this node, ascending */
  orderings: number[];
}

export interface PrefixPlan {
  /** every node, depth-first (a parent before its children) */
  nodes: PrefixNode[];
  roots: PrefixNode[];
  /** tasks trained when every ordering trains from scratch */
  naiveTasks: number;
  /** tasks trained with prefix sharing (= nodes.length) */
  sharedTasks: number;
}

const taskKey = (task: number[]): string => task.join(',');

/**
 * The prefix trie of `orderings` (each a list of tasks; a task's class order does not matter). A node at depth t
 * stands for tasks 0..t (each task's classes ascending, as the engine trains). Nodes come depth-first (children in
 * the order their first ordering appears), so a depth-first walk keeps at most one model per depth and the first
 * ordering is complete after K tasks. `naiveTasks` = Σ of the orderings' task counts; `sharedTasks` = the nodes.
 */
export function planPrefixes(orderings: number[][][]): PrefixPlan {
  interface Building {
    node: Omit<PrefixNode, 'index' | 'children' | 'parent'> & { children: Map<string, Building>; parent: Building | null };
  }
  const roots = new Map<string, Building>();
  let naiveTasks = 0;
  orderings.forEach((ordering, o) => {
    if (ordering.length === 0) throw new RangeError(`Ordering ${o} has no tasks.`);
    naiveTasks += ordering.length;
    let level = roots;
    let parent: Building | null = null;
    const prefix: number[][] = [];
    ordering.forEach((task, t) => {
      const sorted = task.slice().sort((a, b) => a - b);
      prefix.push(sorted);
      const k = taskKey(sorted);
      let b = level.get(k);
      if (!b) {
        b = { node: { depth: t, tasks: prefix.map((p) => p.slice()), key: prefix.map(taskKey).join('|'), orderings: [], children: new Map(), parent } };
        level.set(k, b);
      }
      b.node.orderings.push(o);
      parent = b;
      level = b.node.children;
    });
  });
  const nodes: PrefixNode[] = [];
  const finish = (b: Building, parent: PrefixNode | null): PrefixNode => {
    const node: PrefixNode = {
      index: nodes.length,
      depth: b.node.depth,
      tasks: b.node.tasks,
      key: b.node.key,
      parent,
      children: [],
      orderings: b.node.orderings,
    };
    nodes.push(node);
    for (const c of b.node.children.values()) node.children.push(finish(c, node));
    return node;
  };
  const rootNodes = [...roots.values()].map((b) => finish(b, null));
  return { nodes, roots: rootNodes, naiveTasks, sharedTasks: nodes.length };
}
