/**
 * The pre-trained methods' ids, options, defaults and bounds (docs/science.md §9). The experiment config mirrors
 * the defaults as its frozen v1 fill-ins (src/core/config/defaults.ts STRATEGY_OPTION_FILL; a coverage test keeps
 * the two equal).
 */

export const PTM_STRATEGY_IDS = ['simplecil', 'ranpac', 'fecam'] as const;
export type PtmStrategyId = (typeof PTM_STRATEGY_IDS)[number];

export interface SimpleCilOptions {
  /** 'cosine': SimpleCIL (cosine to the mean of raw features); 'euclidean': NCM (distance to the mean of L2-normalised features) */
  metric: 'cosine' | 'euclidean';
  /** first-session adaptation: the width of a layer trained on the first task, then frozen (absent or 0: none) */
  firstSession?: number;
}
export interface RanpacOptions {
  /** M, the random projection's width (0: no projection, the features themselves) */
  projection: number;
  /** which training rows choose the ridge λ at each step: the last task's (RanPAC's code) or every seen class's */
  lambdaFrom: 'task' | 'seen';
  /** first-session adaptation: the width of a layer trained on the first task, then frozen (absent or 0: none) */
  firstSession?: number;
}
export interface FecamOptions {
  /** α: α · (mean variance) is added to the diagonal of each class's covariance before it is normalised */
  shrinkage: number;
}

export type PtmStrategy = { id: 'simplecil'; options: SimpleCilOptions } | { id: 'ranpac'; options: RanpacOptions } | { id: 'fecam'; options: FecamOptions };

/**
 * Defaults and their sources: SimpleCIL's cosine classifier (LAMDA-PILOT simplecil.py); RanPAC's M = 2 000 (the issue's
 * default; the paper uses 10 000, which costs 25 times the memory and 125 times a ridge solve here) and λ chosen on the
 * last task's rows as RanPAC.py's optimise_ridge_parameter does; FeCAM's α = 1 (alpha1 in FeCAM_vit_*.py shrink_cov).
 */
export const PTM_DEFAULTS = {
  simplecil: { metric: 'cosine' },
  ranpac: { projection: 2000, lambdaFrom: 'task' },
  fecam: { shrinkage: 1 },
} as const satisfies { [K in PtmStrategyId]: Extract<PtmStrategy, { id: K }>['options'] };

/**
 * Options a method takes that are absent by default, and their value when absent (off): first-session adaptation
 * (RanPAC's and APER's "adapt the backbone on the first task, then freeze it"; here a ReLU layer over the frozen
 * features, docs/science.md §9). Absent rather than filled in, so every config and record made before it stays as it
 * was.
 */
export const PTM_OPTIONAL = {
  simplecil: { firstSession: 0 },
  ranpac: { firstSession: 0 },
  fecam: {},
} as const satisfies { [K in PtmStrategyId]: Record<string, number> };

/** The width of a method's first-session layer (0: it does not adapt). */
export function firstSessionWidth(s: PtmStrategy): number {
  return s.id === 'fecam' ? 0 : (s.options.firstSession ?? 0);
}

/** RanPAC.py's ridge grid, 10⁻⁸ … 10⁸ (`10.0 ** np.arange(-8, 9)`), as literals: JavaScript's 10 ** -5 is off by one ulp. */
export const RIDGE_GRID: readonly number[] = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8];

/** Share of each class's training rows RanPAC holds out to choose λ (RanPAC.py fits on int(0.8 n) rows). */
export const RIDGE_FIT_SHARE = 0.8;

/** Two validation errors within this relative distance are a tie, which the smaller λ wins (np.argmin keeps the first). */
export const RIDGE_TIE = 1e-9;

export const PTM_LIMITS = {
  /** RanPAC's M (the paper's largest) */
  projection: 10_000,
  /** float64 bytes one method may hold for its precomputed matrices (a third of a tab's ≈ 4 GB) */
  memoryBytes: 1_500_000_000,
  /** FeCAM's α */
  shrinkage: 1e6,
  /** the first-session layer's width (the head model's widest hidden layer) */
  firstSession: 1024,
} as const;

export function isPtmStrategyId(id: unknown): id is PtmStrategyId {
  return typeof id === 'string' && (PTM_STRATEGY_IDS as readonly string[]).includes(id);
}

/** Human name of a method with its options, e.g. "RanPAC (M = 2000, λ from the last task)". */
export function ptmMethodLabel(s: PtmStrategy): string {
  const w = firstSessionWidth(s);
  const adapted = w > 0 ? `, adapted on the first task (${w} units)` : '';
  if (s.id === 'simplecil') return s.options.metric === 'cosine' ? `SimpleCIL (cosine${adapted})` : `NCM (Euclidean, normalised features${adapted})`;
  if (s.id === 'fecam') return `FeCAM (shrinkage ${s.options.shrinkage})`;
  return `RanPAC (M = ${s.options.projection}, λ from ${s.options.lambdaFrom === 'task' ? 'the last task' : 'every seen class'}${adapted})`;
}
