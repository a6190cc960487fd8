/**
 * A lab's client half, as it registers in src/ui/labs.ts (from its `ui/<lab>/index.ts`), and the one kit component
 * that mounts it (./LabPage.svelte). Two kinds:
 * - `kit`: the lab gives its parts and the kit does the wiring once (./LabKitPage.svelte): the settings bound to the
 *   experiment through the entry's `view`/`apply` (./lab-experiment.svelte.ts), the state from `runner` and `state`,
 *   its effects and disposal, the save of a valid change, the Run row with its lines, the exports, the lesson fold,
 *   the paper, what a link asks that the lab cannot train, teaching mode's Play bar and the lesson observation. The
 *   lab's own settings and canvas are its `Controls` and `Results` components; everything else is data read from its
 *   state (plain functions of it, so they follow its runes).
 * - `page`: a page component that wires itself, mounted as it is (`{ active }`, ./page-props.ts).
 */
import type { Component } from 'svelte';
import type { LabId } from '../../../core/config/types';
import type { LabEntry } from '../../../core/labs/lab';
import type { LessonObservation } from '../../../core/lessons';
import { downloadBlob } from '../chart-export';
import type { LabPageProps } from './page-props';
import type { RunStatus } from './RunControls.svelte';

/** What the kit calls on a lab's state. */
export interface LabState {
  /** Run ▶ (and teaching mode's Play when nothing is paused); absent where the lab has no Run row (`KitLab.progress`) */
  run?(): unknown;
  /** the Run row's and Play bar's Pause / Resume / Cancel (absent with `run`: the lab has neither) */
  pause?(): void;
  resume?(): void;
  cancel?(): void;
  /** teaching mode's Step: exactly one more unit (bucket, model, task), then pause; absent with `run` */
  step?(): void;
  /** the lab's own effects (previews, the store's results of the settings shown), wired while the page initialises;
   * `shown`: its tab is shown (read it in an effect to follow it) */
  attach?(shown: () => boolean): void;
  /** the runner's subscription and the runner itself end (the page is destroyed) */
  dispose(): void;
}

/** The Run row as the lab's state says it: the props of ./RunControls.svelte of the same names. */
export interface RunView {
  status: RunStatus;
  done: number;
  total: number;
  /** what `done` counts ("buckets") */
  unit: string;
  eta?: number | null;
  /** the progress line ('' shows none) */
  text: string;
  runLabel?: string;
  /** Run (and Play, Step) refused, with why in Run's tooltip */
  disabled?: boolean;
  reason?: string;
}

/** The lines under the Run row. */
export interface RunLines {
  /** what the store holds of these settings (data-testid `<testid>-store-line`) */
  store?: string;
  /** the backend that trained last ('' shows none; the name's data-testid `<testid>-backend-in-use`) */
  backend: string;
  /** the step in flight, under the bar (data-testid `<testid>-live`; absent or '' shows none) */
  live?: string;
  error: string;
  notice: string | null;
}

/** One button of the panel's Export row. */
export interface ExportButton {
  label: string;
  testid: string;
  disabled: boolean;
  title?: string;
  onclick(): void;
}

/** Teaching mode's Play bar: its counts, its bold head and its line (by default the Run row's: "3 of 9 buckets
 * trained" and the progress line). */
export interface PlayView {
  done: number;
  total: number;
  head: string;
  line: string;
}

/** The props of a lab's `Controls` and `Results`. */
export interface LabViewProps<L> {
  lab: L;
  teaching: boolean;
}

/**
 * `S`: the lab's settings (its entry's `view`), `R`: its runner, `L`: its state, `C`: the change its entry's `apply`
 * takes (by default some of `S`). The functions of `L` are read in the kit's `$derived`s, so they follow the state.
 */
export interface KitLab<S, R, L extends LabState, C = Partial<S>> {
  /** the lab's entry (src/core/labs/<lab>/index.ts) with its `view`, `apply` and `tab` */
  entry: LabEntry<LabId, S, C>;
  /** the panel's heading */
  title: string;
  /** prefix of the page's data-testids: `<testid>-lab`, `-run` …, `-lesson-settings`, `-unused`, `-command` */
  testid: string;
  /** the data-testid of the notice of what a link asks that the lab cannot train (default `<testid>-unused`) */
  unusedTestid?: string;
  /**
   * false: a link opened from outside is followed in place by the lab's state (its `attach` effects read the
   * experiment) instead of the tab being mounted afresh, so what it computed for the previous experiment can stay on
   * screen, marked as such, until the link's is there (the Orderings lab, which trains nothing). Only for a lab
   * without a `tab` of its own (the kit reads the experiment's start once).
   */
  remountOnLink?: false;
  runner(): R;
  /** the state on the runner, starting from the settings the experiment gives the tab */
  state(runner: R, settings: S): L;
  /** the lab's settings, in the panel's lesson fold */
  Controls: Component<LabViewProps<L>>;
  /** the canvas (charts, tables, the verdict) */
  Results: Component<LabViewProps<L>>;
  /** the lab's own lines under the Run row, after `lines` (what trains where, with markup and data-testids of its own) */
  RunDetails?: Component<LabViewProps<L>>;
  /** the lab's own rows after the Export row (an import, deleting what is stored) */
  Tools?: Component<LabViewProps<L>>;
  /** the settings to save into the experiment (the entry's `apply`), or null while they are not valid (nothing is saved);
   * always null for a lab whose state writes the experiment itself in `attach` (Forgetting, Ground truth) */
  saved(lab: L): C | null;
  /**
   * a change is saved while the lab's tab is hidden too (default: only while it is shown). For a lab whose every
   * change is the visitor's own act on its tab, where what they started may end after they left it (Your classes: an
   * import, the class names' embedding): its result still belongs in the link.
   */
  saveHidden?: boolean;
  /**
   * false: the lab's `Controls` stay unfolded in a lesson, for they are what the lesson asks the visitor to use (Your
   * classes); by default they fold away while a lesson is open
   */
  lessonFold?: false;
  /** why the settings cannot run, each an alert above the Run row */
  problems?(lab: L): string[];
  /**
   * the Run row. Absent: there is no Run row and no Play bar (`play` is not read) and the lab's `lines` stand under
   * the settings: a lab that computes as its settings change, with nothing to run, pause or step (Orderings), or one
   * that starts its runs from its own parts and shows their progress there (Your classes: recording a class trains
   * it, Every ordering is a button on its canvas)
   */
  progress?(lab: L): RunView;
  lines(lab: L, teaching: boolean): RunLines;
  /** the Export row's buttons (none: no Export row, e.g. a lab whose exports are part of its results) */
  exports(lab: L): ExportButton[];
  /** the same run as a `cil-lab` command, under the exports */
  command?(lab: L): string;
  /** teaching mode's Play bar (read only with `progress`) */
  play?: {
    label: string;
    stepTitle: string;
    /** the line while the Run row has none */
    idle?: string;
    /** counts, head and line of the lab's own instead of the Run row's */
    view?(lab: L): PlayView;
    /** the readout's data-testid (default `<testid>-readout`) */
    readoutTestid?: string;
    /** Stop's tooltip (default: PlayBar's) */
    stopTitle?: string;
  };
  /** what an open lesson checks (core/lessons/observations.ts; null: nothing run yet) */
  observation(lab: L): LessonObservation | null;
}

/** The Export row's "results (JSON)": `json()` downloaded as `file`. */
export function jsonExport(testid: string, file: string, disabled: boolean, json: () => string): ExportButton {
  return { label: 'results (JSON)', testid, disabled, onclick: () => downloadBlob(json(), file, 'application/json') };
}

/** A registered lab as the kit reads it (its types erased: the kit only hands a lab's state back to its own parts). */
export type KitLabClient = KitLab<unknown, unknown, LabState, unknown> & { kind: 'kit' };

export interface PageLabClient {
  kind: 'page';
  page: Component<LabPageProps>;
  /** mounted afresh when a link is opened from outside (else it follows the link in place) */
  remountOnLink: boolean;
}

export type LabClient = KitLabClient | PageLabClient;

/**
 * Register a lab whose page the kit wires. It is mounted afresh when a link is opened from outside (the new page shows
 * that link's experiment, and the old one's state is disposed, `LabState.dispose`, its run in flight with it), unless
 * it follows links itself: `remountOnLink: false`.
 */
export function kitLab<S, R, L extends LabState, C = Partial<S>>(lab: KitLab<S, R, L, C>): KitLabClient {
  return { kind: 'kit', ...(lab as unknown as KitLab<unknown, unknown, LabState, unknown>) };
}

/** Register a page that wires itself. */
export function pageLab(page: Component<LabPageProps>, remountOnLink: boolean): LabClient {
  return { kind: 'page', page, remountOnLink };
}

/** A registration is mounted afresh when a link is opened from outside. */
export function remountsOnLink(client: LabClient): boolean {
  return client.kind === 'kit' ? client.remountOnLink !== false : client.remountOnLink;
}
