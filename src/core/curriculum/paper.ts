/**
 * M2I's published ACC figures the Curriculum lab's verdict quotes (docs/verdicts.md §Curriculum), copied by hand from
 * /work/shared/papers/m2i-mnist-to-imagenet-and-back.txt §5 (RQ2): ACC after the last task, Wide-VGG9, I2M → M2I, for
 * the strategies the text names (its Tables 3–4 are not in the text we have). The paper's reading: "almost all methods
 * present a better performance in the curriculum learning setting (M2I)", and (same section) ACC's weighting itself
 * favours easy-first ("MNIST … will be considered multiple times … which may boost the final average").
 */

export interface M2iFigure {
  /** the paper's name of the strategy */
  name: string;
  cil: { i2m: number; m2i: number };
  til: { i2m: number; m2i: number };
}

/** Keyed by our strategy id. */
export const M2I_VGG9: Readonly<Record<string, M2iFigure>> = {
  replay: { name: 'Replay', cil: { i2m: 0.55, m2i: 0.755 }, til: { i2m: 0.571, m2i: 0.73 } },
  ewc: { name: 'EWC', cil: { i2m: 0.19, m2i: 0.22 }, til: { i2m: 0.34, m2i: 0.395 } },
  lwf: { name: 'LwF', cil: { i2m: 0.216, m2i: 0.222 }, til: { i2m: 0.262, m2i: 0.349 } },
};
