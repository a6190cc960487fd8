/** Typed access to tests/fixtures/conformal.json (made by scripts/make-conformal-fixtures.py). */
import raw from '../../../fixtures/conformal.json';

export interface FxSetCase {
  q: number | null;
  sets: number[][];
  sizes: number[];
  coverage: number | null;
}
export interface FxScoreCase {
  name: string;
  float32: boolean;
  probs: number[][];
  labels: number[];
  scores: { aps: number[]; lac: number[]; raps: number[]; 'raps_l0.1_k2': number[] };
  sets: { aps: FxSetCase[]; lac: FxSetCase[]; raps: FxSetCase[] };
}
export interface FxSplit {
  probs: number[][];
  labels: number[];
}
export interface FxCpcfStep {
  afterTask: number;
  width: number;
  q: number | null;
  calibrationCount: number;
  testCount: number;
  cpcf: number;
  coverage: number;
  aPrev: number;
  aNew: number;
  previous: { task: number; n: number; meanSetSize: number; coverage: number; accuracy: number; sizeCounts: number[] }[];
}
export interface FxOmega {
  omegaBase: number;
  omegaNew: number;
  omegaAll: number;
  omegaPrev: number;
  alphaIdeal: number;
}
export interface ConformalFixture {
  _note: string;
  raps: { lambda: number; kReg: number };
  scores: FxScoreCase[];
  quantile: { scores: number[]; alpha: number; k: number; q: number | null }[];
  conformal: {
    score: 'aps' | 'lac' | 'raps';
    alpha: number;
    calibration: FxSplit;
    test: FxSplit;
    q: number | null;
    sizes: number[];
    sets: number[][];
    coverage: number;
    meanSize: number;
  }[];
  cpcf: {
    name: string;
    float32: boolean;
    outputs: { calibration: FxSplit; test: FxSplit }[][];
    results: Record<string, { steps: FxCpcfStep[]; accuracy: number[][] }>;
  }[];
  omega: { matrix: number[][]; testCounts: number[]; weighted: FxOmega; unweighted: FxOmega; supplied: FxOmega }[];
  dcor: { x: number[]; y: number[]; covarianceXy: number; correlationXy: number; varianceX: number; varianceY: number; dcor: number; pearson: number | null }[];
  dcorMultivariate: { x: number[][]; y: number[][]; covarianceXy: number; correlationXy: number; varianceX: number; varianceY: number; dcor: number };
}

export const fx = raw as unknown as ConformalFixture;

/** JSON null stands for q = +∞. */
export const qOf = (q: number | null): number => (q === null ? Infinity : q);

/** |a − b| ≤ tol, element-wise, with a message that says where. */
export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number, what: string): void {
  if (actual.length !== expected.length) throw new Error(`${what}: length ${actual.length} ≠ ${expected.length}`);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const e = expected[i];
    if (!(a === e || Math.abs(a - e) <= tol)) throw new Error(`${what}[${i}]: ${a} ≠ ${e} (tolerance ${tol})`);
  }
}
