/**
 * The Open-world lab's detectors (docs/science.md §5): ids, names, kinds and the fine-tuning settings' defaults.
 * Pure data, shared by the engine (src/engine/ood), the CLI (`cil-lab ood`) and the lab's settings.
 *
 * Post-hoc detectors score the CIL model's own outputs; fine-tuning detectors train an extra head on the frozen
 * features after each step (OpenCIL's Algorithm 2) and score with that head. BER's ablation (the paper's Table 2)
 * is four detectors: `ber` (NTER + OTER), `ber-nter`, `ber-oter` and `ber-ce` (neither term: the head trained with
 * cross-entropy alone, scored with Energy).
 */
export const POST_HOC_DETECTORS = ['msp', 'maxlogit', 'energy', 'gen', 'odin', 'react', 'klm', 'relation', 'nnguide'] as const;
export const FINE_TUNING_DETECTORS = ['ber', 'ber-nter', 'ber-oter', 'ber-ce', 'logitnorm', 'regmixup'] as const;
export const DETECTOR_IDS = [...POST_HOC_DETECTORS, ...FINE_TUNING_DETECTORS] as const;
export type FineTuningDetector = (typeof FINE_TUNING_DETECTORS)[number];
export type DetectorId = (typeof DETECTOR_IDS)[number];

export const DETECTOR_LABELS: Record<DetectorId, string> = {
  msp: 'MSP',
  maxlogit: 'MaxLogit',
  energy: 'Energy',
  gen: 'GEN',
  odin: 'ODIN',
  react: 'ReAct',
  klm: 'KLM',
  relation: 'Relation',
  nnguide: 'NNGuide',
  ber: 'BER',
  'ber-nter': 'BER (NTER only)',
  'ber-oter': 'BER (OTER only)',
  'ber-ce': 'BER head, no energy terms',
  logitnorm: 'LogitNorm',
  regmixup: 'RegMixup',
};

export function isDetectorId(s: string): s is DetectorId {
  return (DETECTOR_IDS as readonly string[]).includes(s);
}

export function isFineTuning(d: DetectorId): d is FineTuningDetector {
  return (FINE_TUNING_DETECTORS as readonly string[]).includes(d);
}

/** BER's two terms per detector id (the ablation). */
export function berTerms(d: DetectorId): { nter: boolean; oter: boolean } | null {
  if (d === 'ber') return { nter: true, oter: true };
  if (d === 'ber-nter') return { nter: true, oter: false };
  if (d === 'ber-oter') return { nter: false, oter: true };
  if (d === 'ber-ce') return { nter: false, oter: false };
  return null;
}

/** Settings of the fine-tuned heads (OpenCIL's fine-tuning setting; margins chosen for small heads, see the engine). */
export interface HeadSettings {
  /** epochs over the set-up data (paper: 10) */
  epochs: number;
  batchSize: number;
  /** SGD, momentum 0.9, weight decay 5e-4, cosine schedule per iteration (paper) */
  lr: number;
  momentum: number;
  weightDecay: number;
  /** BER: α (0.1), the margins, and the old-sample mix weight λ (0.002·x_new + 0.998·x_old) */
  alpha: number;
  marginIn: number;
  marginOut: number;
  oldMix: number;
  /** LogitNorm's τ */
  logitNormTau: number;
  /** RegMixup's Beta(a, a) and the weight of its mixup term */
  regMixupAlpha: number;
}

/**
 * Defaults. `marginIn`/`marginOut` are not the paper's −27/−5 (a ResNet's energies on CIFAR-100): they were
 * picked from the energies our MLP's head actually produces — see `src/engine/ood/heads.ts` for the measurement.
 * `lr` is 0.01, not the paper's 0.1: on our MLP's features (ReLU activations of 784 pixels, norms of tens rather
 * than a ResNet's pooled features) lr 0.1 with momentum 0.9 diverged (NaN head weights) on the full Fashion-MNIST
 * 0–5 run, and on a 600-per-class subset lr 0.01 gave the better heads (mean AUROC BER 0.741 vs 0.683 at lr 0.1).
 */
export const HEAD_DEFAULTS: HeadSettings = {
  epochs: 10,
  batchSize: 128,
  lr: 0.01,
  momentum: 0.9,
  weightDecay: 5e-4,
  alpha: 0.1,
  marginIn: -10,
  marginOut: -4,
  oldMix: 0.002,
  logitNormTau: 0.04,
  regMixupAlpha: 10,
};
