/**
 * The model settings component's value (EncoderSettings.svelte), pure: what the form holds, and the weight source
 * it makes (the config's ClipWeightSource shape: hub, mirror URL or self-hosted folder).
 */
import type { ClipWeightSource } from '../../core/config/types';

export interface EncoderSettingsValue {
  model: string;
  revision: string;
  precision: string;
  weights: 'hub' | 'mirror' | 'self-hosted';
  folder: string;
  mirror: string;
  device: 'webgpu' | 'wasm';
}

/** The weight source of the form (a blank folder: `defaultFolder`). */
export function weightSourceOfSettings(v: EncoderSettingsValue, defaultFolder: string): ClipWeightSource {
  if (v.weights === 'self-hosted') return { kind: 'self-hosted', path: v.folder.trim() || defaultFolder };
  if (v.weights === 'mirror') return { kind: 'mirror', url: v.mirror.trim() };
  return { kind: 'hub' };
}

/** The form of a weight source. */
export function settingsOfWeights(w: ClipWeightSource, defaultFolder: string): Pick<EncoderSettingsValue, 'weights' | 'folder' | 'mirror'> {
  return w.kind === 'self-hosted'
    ? { weights: 'self-hosted', folder: w.path, mirror: '' }
    : w.kind === 'mirror'
      ? { weights: 'mirror', folder: defaultFolder, mirror: w.url }
      : { weights: 'hub', folder: defaultFolder, mirror: '' };
}

/** "88.1 MB" (decimal megabytes). */
export function megabytesOf(bytes: number): string {
  return `${(bytes / 1e6).toFixed(bytes < 1e6 ? 2 : 1)} MB`;
}

/** The download size once asked: bytes (null: a server did not say; 0: nothing to download), or why it could not be asked. */
export type EncoderSize = { bytes: number | null } | { error: string } | null;

/**
 * What the one button says: first "Check the download size" (HEAD requests only), then how many MB it downloads
 * before it does `action` ("extract features", "embed 6 classes"), or that nothing needs downloading.
 */
export function runButtonText(size: EncoderSize, action: string): string {
  if (size === null) return 'Check the download size';
  if ('error' in size) return 'Check again';
  if (size.bytes === null) return `Download (size unknown) and ${action}`;
  if (size.bytes === 0) return `${action.charAt(0).toUpperCase()}${action.slice(1)} (nothing to download)`;
  return `Download ${megabytesOf(size.bytes)} and ${action}`;
}

/** A model offered by name: its listed download per precision (bytes, the hub's listing) where known. */
export interface OfferedModel {
  id: string;
  label: string;
  note: string;
  sizes?: Partial<Record<string, number>>;
  listedAt?: string;
}

/**
 * What a known model's download is before anything is asked ("about 87.5 MB as q8 (fp16 172 MB, fp32 343 MB), as the
 * hub lists revision 096edaa"), or '' for a model without a listing.
 */
export function listedSizeText(m: OfferedModel | undefined, precision: string): string {
  const bytes = m?.sizes?.[precision];
  if (!m?.sizes || bytes === undefined) return '';
  const others = Object.entries(m.sizes)
    .filter(([p, b]) => p !== precision && b !== undefined)
    .map(([p, b]) => `${p} ${megabytesOf(b!)}`);
  return `About ${megabytesOf(bytes)} as ${precision}${others.length ? ` (${others.join(', ')})` : ''}, as the hub lists ${m.listedAt ?? 'it'}; the button asks the real size first.`;
}
