/**
 * Task colours, the same everywhere (docs/design.md): Okabe–Ito for ≤ 8 tasks, d3's Tableau10 beyond (cycled).
 * Text colour is chosen for contrast on each fill.
 */
import { schemeTableau10 } from 'd3-scale-chromatic';

export const OKABE_ITO = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7', '#000000'];

export function taskColours(taskCount: number): string[] {
  const scheme = taskCount <= OKABE_ITO.length ? OKABE_ITO : schemeTableau10;
  return Array.from({ length: taskCount }, (_, t) => scheme[t % scheme.length]);
}

/** Relative luminance (WCAG) of a #rrggbb colour. */
export function luminance(hex: string): number {
  const v = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lin = v.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

/** Black or white text, whichever contrasts more with the fill. */
export function textOn(hex: string): string {
  const l = luminance(hex);
  return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}
