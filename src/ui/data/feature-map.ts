/**
 * The Data tab's 2-D feature map (FeatureMap.svelte draws it), pure: which rows it shows (at most MAP_PER_CLASS
 * training rows of each class), their PCA coordinates (core/features/pca.ts), the scales, ticks and axis titles with
 * each component's share of the variance, one colour per class (Okabe–Ito, then a hue wheel), and the CSV the ⤓ menu
 * exports. A separation figure in words: the share of the mapped rows whose nearest class centre on the map is their
 * own, so a student reads how well two dimensions already separate the classes.
 */
import { scaleLinear } from 'd3-scale';
import { mapRows, pca2 } from '../../core/features/pca';
import type { FeatureSet } from '../../core/features/feature-set';
import { OKABE_ITO } from '../common/palette';
import type { CsvTable } from '../common/chart-export';

/** Training rows per class on the map (enough to see a cloud, few enough to draw and compute at once). */
export const MAP_PER_CLASS = 300;

export interface MapPoint {
  x: number;
  y: number;
  /** index into `classes` */
  cls: number;
  /** the feature set's row */
  row: number;
}

export interface FeatureMapModel {
  points: MapPoint[];
  classes: { label: number; name: string; colour: string; count: number }[];
  /** data coordinates of every point, [pc1, pc2] */
  coords: Float64Array;
  explained: [number, number];
  xTitle: string;
  yTitle: string;
  /** share of mapped rows nearer (on the map) to their own class's centre than to any other */
  separation: number;
  /** rows of the set not shown (beyond MAP_PER_CLASS per class, test rows) */
  hidden: number;
}

export interface MapFrame {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

/** One colour per class: Okabe–Ito's eight, then evenly spaced hues. */
export function classColours(n: number): string[] {
  return Array.from({ length: n }, (_, k) =>
    k < OKABE_ITO.length ? OKABE_ITO[k] : `hsl(${Math.round((360 * (k - OKABE_ITO.length)) / Math.max(1, n - OKABE_ITO.length))}, 65%, 45%)`,
  );
}

/** The map of a feature set's `classes` (dataset class indices; default every class that has training rows). */
export function featureMap(set: FeatureSet, classes?: readonly number[], perClass = MAP_PER_CLASS): FeatureMapModel {
  const wanted = classes ?? [...new Set(Array.from(set.labels))].sort((a, b) => a - b);
  const rows = mapRows(set.labels, set.split, wanted, perClass);
  if (rows.length < 2) throw new RangeError('The map needs at least 2 training rows of the experiment’s classes.');
  const x = new Float64Array(rows.length * set.d);
  rows.forEach((r, k) => {
    for (let j = 0; j < set.d; j++) x[k * set.d + j] = set.features[r * set.d + j];
  });
  const p = pca2(x, rows.length, set.d);
  const index = new Map(wanted.map((c, k) => [c, k]));
  const colours = classColours(wanted.length);
  const points = Array.from(rows, (r, k) => ({ x: p.coords[2 * k], y: p.coords[2 * k + 1], cls: index.get(set.labels[r])!, row: r }));
  const counts = new Array<number>(wanted.length).fill(0);
  for (const pt of points) counts[pt.cls]++;
  // class centres on the map, then each point's nearest centre
  const cx = new Array<number>(wanted.length).fill(0);
  const cy = new Array<number>(wanted.length).fill(0);
  for (const pt of points) {
    cx[pt.cls] += pt.x / counts[pt.cls];
    cy[pt.cls] += pt.y / counts[pt.cls];
  }
  let own = 0;
  for (const pt of points) {
    let best = -1;
    let bestD = Infinity;
    for (let c = 0; c < wanted.length; c++) {
      if (counts[c] === 0) continue;
      const dd = (pt.x - cx[c]) ** 2 + (pt.y - cy[c]) ** 2;
      if (dd < bestD) {
        bestD = dd;
        best = c;
      }
    }
    if (best === pt.cls) own++;
  }
  const pctOf = (v: number) => `${(100 * v).toFixed(1)} %`;
  return {
    points,
    classes: wanted.map((c, k) => ({ label: c, name: set.classNames[c], colour: colours[k], count: counts[k] })),
    coords: p.coords,
    explained: p.explained,
    xTitle: `PC1 (${pctOf(p.explained[0])} of the variance)`,
    yTitle: `PC2 (${pctOf(p.explained[1])} of the variance)`,
    separation: own / points.length,
    hidden: set.n - points.length,
  };
}

/** Scales and ticks of the map in a frame (equal data units per pixel would squash PC2; each axis fills its side). */
export function mapScales(m: FeatureMapModel, f: MapFrame) {
  const xs = m.points.map((p) => p.x);
  const ys = m.points.map((p) => p.y);
  const pad = (lo: number, hi: number): [number, number] => {
    const span = hi - lo || 1;
    return [lo - 0.04 * span, hi + 0.04 * span];
  };
  const x = scaleLinear()
    .domain(pad(Math.min(...xs), Math.max(...xs)))
    .range([f.margin.left, f.width - f.margin.right])
    .nice();
  const y = scaleLinear()
    .domain(pad(Math.min(...ys), Math.max(...ys)))
    .range([f.height - f.margin.bottom, f.margin.top])
    .nice();
  return { x, y, xTicks: x.ticks(Math.max(2, Math.floor((f.width - f.margin.left - f.margin.right) / 80))), yTicks: y.ticks(5) };
}

/** The map's numbers for the ⤓ menu's CSV: one row per point (row of the feature set, class, name, pc1, pc2). */
export function featureMapCsv(m: FeatureMapModel): CsvTable {
  return {
    columns: ['row', 'label', 'class_name', 'pc1', 'pc2'],
    rows: m.points.map((p) => [p.row, m.classes[p.cls].label, m.classes[p.cls].name, p.x, p.y]),
  };
}
