/**
 * The Open-world lab's verdict (docs/verdicts.md §Open world): over the seeds run,
 *   1. which detector separates ID from OOD best (AUROC, averaged over steps, then OOD sets), and whether it beats
 *      the next one beyond the spread;
 *   2. where BER, OpenCIL's own method, ranks — the paper finds it best in every setting — with the paper's AUROC;
 *   3. whether the near-OOD set is harder to detect than the far one (nearer, as its name says), and when it is not,
 *      what the lab measured that explains it: the model's confidence (mean max-softmax) on each set;
 *   4. what to try.
 * `readOpenWorld` computes the numbers and outcomes (checked against scripts/make-verdict-fixtures.py);
 * `openWorldVerdict` words them. Pure.
 */
import { DETECTOR_LABELS, type DetectorId } from '../ood/detectors';
import { OPENCIL_TABLE_2_AUROC, openCilRange } from '../ood/paper';
import { spreadOf, type Spread } from './intervals';
import { noVerdict, type Verdict, type VerdictSentence } from './types';
import { claim, differenceOutcome, type DifferenceOutcome } from './claim';
import { countText, listText, lowerFirst, num, pctText, plural, spreadText } from './wording';

/** One seed's results: AUROC per detector and OOD set (mean over steps), and confidence per OOD set. */
export interface OpenWorldSeedRun {
  seed: number;
  summary: readonly { detector: string; perSet: readonly { oodSet: string; auroc: number }[] }[];
  /** mean max-softmax on each OOD set, averaged over steps (the lab's Fig. 1b numbers) */
  confidence?: Readonly<Record<string, number>>;
  /** CIL accuracy after the last step */
  finalAccuracy: number;
}

export interface OpenWorldVerdictInput {
  settings: { dataset: string; headEpochs: number };
  /** each OOD set's kind (near: held-out classes of the ID dataset; far: another dataset) */
  oodKinds: Readonly<Record<string, 'near' | 'far'>>;
  runs: readonly OpenWorldSeedRun[];
  /** seeds planned; fewer finished makes the verdict provisional */
  planned?: number;
}

/** What the verdict reads of one seed's run report (`cil-lab ood`'s output, the lab's JSON export: engine/ood/report.ts). */
export interface OpenWorldReportLike {
  dataset: string;
  head: { epochs: number };
  oodSets: readonly { name: string; kind: 'near' | 'far' }[];
  config: { seed: number | string };
  summary: OpenWorldSeedRun['summary'];
  steps: readonly { confidence: { ood: Readonly<Record<string, number>> } }[];
  accuracy: readonly number[];
}

/**
 * The verdict's input from the reports of one run per seed: `cil-lab ood` and the lab's page build it with this one
 * function, so both say the same sentences. `planned`: the seeds asked for (fewer reports: provisional).
 */
/** The headline: the best detector and whether it is told apart, or the near/far finding. At most 30 words. */
function headlineOf(r: OpenWorldReading, n: number): string {
  const seeds = plural(n, 'seed');
  if (r.detectors.length >= 2 && r.bestLead) {
    const [a, b] = r.detectors;
    const best = `${label(a.detector)} separates unknown images from known ones best (AUROC ${num(a.mean, 1)}%)`;
    return r.bestLead.claim === 'positive'
      ? `${best}, ahead of ${label(b.detector)} beyond the spread over ${seeds}.`
      : `${best}, but it cannot be told apart from ${label(b.detector)} (${num(b.mean, 1)}%) over ${seeds}.`;
  }
  if (r.detectors.length === 1)
    return `${label(r.detectors[0].detector)} separates unknown images from known ones with AUROC ${num(r.detectors[0].mean, 1)}% over ${seeds}.`;
  return '';
}

export function openWorldVerdictInput(reports: readonly OpenWorldReportLike[], planned?: number): OpenWorldVerdictInput {
  const first = reports[0];
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    settings: { dataset: first.dataset, headEpochs: first.head.epochs },
    oodKinds: Object.fromEntries(first.oodSets.map((o) => [o.name, o.kind])),
    runs: reports.map((r) => ({
      seed: Number(r.config.seed),
      summary: r.summary,
      confidence: Object.fromEntries(first.oodSets.map((o) => [o.name, avg(r.steps.map((st) => st.confidence.ood[o.name]))])),
      finalAccuracy: r.accuracy[r.accuracy.length - 1],
    })),
    ...(planned !== undefined ? { planned } : {}),
  };
}

type Claim = DifferenceOutcome;

export interface OpenWorldReading {
  /** per detector, its AUROC (mean over OOD sets) over seeds, in %, best first */
  detectors: (Spread & { detector: string })[];
  /** the best minus the second, paired by seed (points) */
  bestLead: (Spread & { claim: Claim }) | null;
  /** BER minus the best other detector, paired by seed (points); null without BER and another detector */
  ber: (Spread & { claim: Claim; rank: number; of: number; rival: string }) | null;
  /** far minus near AUROC (mean over detectors), paired by seed (points): > 0 means the near set is the harder one */
  nearFar: (Spread & { claim: Claim; near: Spread; far: Spread; nearConfidence: number | null; farConfidence: number | null }) | null;
  finalAccuracy: Spread;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

function setMean(run: OpenWorldSeedRun, detector: string, keep: (set: string) => boolean = () => true): number {
  const d = run.summary.find((x) => x.detector === detector);
  return d ? 100 * mean(d.perSet.filter((p) => keep(p.oodSet)).map((p) => p.auroc)) : NaN;
}

export function readOpenWorld(input: OpenWorldVerdictInput): OpenWorldReading {
  const runs = input.runs;
  const names = runs[0]?.summary.map((d) => d.detector) ?? [];
  const detectors = names.map((detector) => ({ detector, ...spreadOf(runs.map((r) => setMean(r, detector))) })).sort((a, b) => b.mean - a.mean);
  const paired = (a: string, b: string) => spreadOf(runs.map((r) => setMean(r, a) - setMean(r, b)));
  let bestLead: OpenWorldReading['bestLead'] = null;
  if (detectors.length >= 2) {
    const s = paired(detectors[0].detector, detectors[1].detector);
    bestLead = { ...s, claim: differenceOutcome(s) };
  }
  let ber: OpenWorldReading['ber'] = null;
  const rank = detectors.findIndex((d) => d.detector === 'ber');
  if (rank >= 0 && detectors.length >= 2) {
    const rival = detectors.find((d) => d.detector !== 'ber')!.detector;
    const s = paired('ber', rival);
    ber = { ...s, claim: differenceOutcome(s), rank: rank + 1, of: detectors.length, rival };
  }
  let nearFar: OpenWorldReading['nearFar'] = null;
  const sets = Object.keys(input.oodKinds);
  const isNear = (set: string) => input.oodKinds[set] === 'near';
  if (sets.some(isNear) && sets.some((x) => !isNear(x)) && names.length > 0) {
    const near = runs.map((r) => mean(names.map((d) => setMean(r, d, isNear))));
    const far = runs.map((r) => mean(names.map((d) => setMean(r, d, (x) => !isNear(x)))));
    const s = spreadOf(far.map((f, i) => f - near[i]));
    const conf = (keep: (set: string) => boolean) => {
      const v = runs.flatMap((r) =>
        r.confidence
          ? Object.entries(r.confidence)
              .filter(([k]) => keep(k))
              .map(([, c]) => c)
          : [],
      );
      return v.length ? mean(v) : null;
    };
    nearFar = {
      ...s,
      claim: differenceOutcome(s),
      near: spreadOf(near),
      far: spreadOf(far),
      nearConfidence: conf(isNear),
      farConfidence: conf((x) => !isNear(x)),
    };
  }
  return { detectors, bestLead, ber, nearFar, finalAccuracy: spreadOf(runs.map((r) => 100 * r.finalAccuracy)) };
}

const label = (d: string) => DETECTOR_LABELS[d as DetectorId] ?? d;
const auroc = (s: Spread) => (s.n > 1 ? `${num(s.mean, 1)} ± ${num(s.sd, 1)}` : num(s.mean, 1));

export function openWorldVerdict(input: OpenWorldVerdictInput): Verdict {
  const r = readOpenWorld(input);
  const out: VerdictSentence[] = [];
  const n = input.runs.length;
  if (n === 0) return noVerdict();
  const seeds = n > 1 ? ` (mean ± sd over ${countText(n)} seeds)` : '';
  if (r.detectors.length > 0) {
    const list = listText(r.detectors.map((d) => `${label(d.detector)} ${auroc(d)}`));
    out.push({
      id: 'ow-ranking',
      kind: 'finding',
      text: `AUROC in %, averaged over steps and OOD sets${seeds}, higher separating ID from OOD better: ${list}.`,
    });
  }
  // when BER leads, its own sentence below says by how much
  if (r.bestLead && r.detectors.length >= 2 && !(r.ber && r.ber.rank === 1)) {
    const [a, b] = r.detectors;
    const c = claim(
      { kind: 'difference', spread: r.bestLead },
      {
        subject: `${label(a.detector)} minus ${label(b.detector)} (AUROC, paired by seed)`,
        positive: (n) => `${label(a.detector)} beats ${label(b.detector)} beyond the spread: ${n}`,
      },
    );
    out.push({ id: `ow-best:${r.bestLead.claim}`, kind: 'finding', text: `${c.text}.` });
  }
  if (r.ber) {
    const paper = openCilRange('ber');
    const rival = openCilRange(r.ber.rival);
    const figures = `Table 1, CIFAR-100: BER ${num(paper!.min, 1)}–${num(paper!.max, 1)} over four CIL models${rival ? `, ${label(r.ber.rival)} ${num(rival.min, 1)}–${num(rival.max, 1)}` : ''}`;
    const paperText = `OpenCIL finds BER best on average in every setting (${figures})`;
    const c = claim(
      { kind: 'difference', spread: r.ber },
      {
        subject: `BER minus ${label(r.ber.rival)} (AUROC, paired by seed)`,
        positive: (n) => `BER beats ${label(r.ber!.rival)} beyond the spread: ${n}`,
        negative: (n) => `BER is behind ${label(r.ber!.rival)} beyond the spread: ${n}`,
      },
    );
    let text: string;
    let why: string | null = null;
    if (r.ber.claim === 'positive') text = `${c.text}, as in the paper: ${paperText}.`;
    else if (r.ber.claim === 'negative') text = `${c.text}: unlike the paper, where BER is best on average in every setting (${figures}).`;
    else text = `BER ranks ${r.ber.rank} of ${r.ber.of} by its mean, but: ${lowerFirst(c.text)}; ${paperText}.`;
    if (r.ber.claim !== 'positive')
      why = `BER's head here is a linear layer trained for ${plural(input.settings.headEpochs, 'epoch')} on a small MLP's features of ${input.settings.dataset}; the paper's is a ResNet-32's on CIFAR-100. On this model the retrained head is what helps, not its energy terms (docs/science.md §5, measured).`;
    out.push({ id: `ow-ber:${r.ber.claim}`, kind: 'finding', text });
    if (why) out.push({ id: 'ow-ber-why', kind: 'why', text: why });
  }
  if (r.nearFar) {
    const nf = r.nearFar;
    const nearSets = Object.keys(input.oodKinds).filter((k) => input.oodKinds[k] === 'near');
    const farSets = Object.keys(input.oodKinds).filter((k) => input.oodKinds[k] !== 'near');
    const both = `near ${listText(nearSets)} ${auroc(nf.near)}, far ${listText(farSets)} ${auroc(nf.far)} (AUROC %, mean over detectors)`;
    const paper = `In OpenCIL's Table 2 (CIFAR-100, Energy) the near sets score ${num(OPENCIL_TABLE_2_AUROC.near['CIFAR-10'].energy, 1)} and ${num(OPENCIL_TABLE_2_AUROC.near.TIN.energy, 1)}, the far ones from ${num(OPENCIL_TABLE_2_AUROC.far.Texture.energy, 1)} (Texture) to ${num(OPENCIL_TABLE_2_AUROC.far.MNIST.energy, 1)} (MNIST)`;
    const c = claim(
      { kind: 'difference', spread: nf },
      {
        subject: 'Far minus near AUROC (mean over detectors, paired by seed)',
        positive: (n) => `The near-OOD set is the harder one to detect, beyond the spread: far minus near = ${n}`,
        negative: (n) => `Here the near-OOD set is the easier one to detect, beyond the spread: far minus near = ${n}`,
      },
    );
    out.push({ id: `ow-near:${nf.claim}`, kind: 'finding', text: `${c.text}; ${both}. ${paper}.` });
    if (nf.claim !== 'positive') {
      if (nf.mean <= 0 && nf.nearConfidence !== null && nf.farConfidence !== null) {
        out.push({
          id: 'ow-near-why:confidence',
          kind: 'why',
          text:
            nf.farConfidence >= nf.nearConfidence
              ? `"Near" names held-out classes of the ID dataset, a small semantic shift; the model is at least as confident on the far set (mean max-softmax ${pctText(nf.farConfidence)}) as on the near one (${pctText(nf.nearConfidence)}): brought to the ID images' size and grey, the far images look as much like its classes to it.`
              : `The model is less confident on the far set (mean max-softmax ${pctText(nf.farConfidence)}) than on the near one (${pctText(nf.nearConfidence)}), yet the detectors separate the near set at least as well: the scores' ranking, not the mean confidence, decides AUROC.`,
        });
      }
      out.push({
        id: 'ow-near-try',
        kind: 'try',
        text: 'Try Fashion-MNIST as the ID data with its held-out classes 6–9 as near OOD and digits as far (the near-far preset): there the near set is the harder one.',
      });
    }
  }
  out.push({ id: 'ow-accuracy', kind: 'note', text: `Class-incremental accuracy after the last step: ${spreadText(r.finalAccuracy, '%')}.` });
  if (n < 3)
    out.push({ id: 'ow-seeds-try', kind: 'try', text: 'Run 3 or more seeds: a ranking of detectors is said only when it holds beyond the spread over seeds.' });
  const provisional = input.planned !== undefined && n < input.planned;
  return {
    headline: headlineOf(r, n),
    sentences: out,
    provisional,
    provisionalNote: provisional ? `Provisional: ${countText(n)} of ${countText(input.planned!)} seeds finished.` : '',
  };
}
