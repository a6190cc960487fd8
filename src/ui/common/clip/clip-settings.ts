/**
 * The CLIP panel's settings and messages (ClipSettings.svelte), pure: the settings remembered in localStorage, the
 * weight source and prompt they make, and what a failed load says (tests/unit/ui/orderings-clip-settings.test.ts).
 */
import type { ClipDtype, DevicePreference, LoadFailure } from '../../../services/embed-client';
import type { PromptSpec } from '../../../core/similarity/prompts';

export type WeightKind = 'hub' | 'self-hosted' | 'mirror';
export type PromptKind = 'bare' | 'template' | 'descriptions';

/** The panel's settings, as remembered. */
export interface ClipSaved {
  modelId: string;
  dtype: ClipDtype;
  weights: WeightKind;
  folder: string;
  mirrorUrl: string;
  device: DevicePreference;
  promptKind: PromptKind;
  template: string;
  descriptions: Record<string, string>;
}

export const CLIP_STORAGE_KEY = 'cil-lab:clip-settings:v1';

/** The remembered settings (anything unreadable: none). */
export function loadSaved(storage: Pick<Storage, 'getItem'> | undefined): Partial<ClipSaved> {
  try {
    const raw = storage?.getItem(CLIP_STORAGE_KEY);
    const v = raw ? (JSON.parse(raw) as Partial<ClipSaved>) : {};
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/** Settings to start from: each remembered (or linked) value when it is usable, else the default. */
export function startSettings(saved: Partial<ClipSaved>, defaults: { modelId: string; folder: string }): ClipSaved {
  const pick = <T>(v: unknown, ok: readonly T[], d: T): T => (ok.includes(v as T) ? (v as T) : d);
  const str = (v: unknown, d: string) => (typeof v === 'string' ? v : d);
  return {
    modelId: str(saved.modelId, defaults.modelId),
    dtype: pick(saved.dtype, ['q8', 'fp32'] as const, 'q8'),
    weights: pick(saved.weights, ['hub', 'self-hosted', 'mirror'] as const, 'hub'),
    folder: str(saved.folder, defaults.folder),
    mirrorUrl: str(saved.mirrorUrl, ''),
    device: pick(saved.device, ['webgpu', 'wasm'] as const, 'webgpu'),
    promptKind: pick(saved.promptKind, ['bare', 'template', 'descriptions'] as const, 'bare'),
    template: str(saved.template, 'a photo of a {}'),
    descriptions: saved.descriptions && typeof saved.descriptions === 'object' ? { ...saved.descriptions } : {},
  };
}

/** Where the weights come from, in words, for messages (the source itself: ../common/encoder-settings.ts). */
export function whereText(weights: WeightKind, folder: string, mirrorUrl: string, defaultFolder: string, modelId: string): string {
  if (weights === 'self-hosted') return `the self-hosted folder ${(folder.trim() || defaultFolder).replace(/\/?$/, '/')}${modelId}/`;
  if (weights === 'mirror') return `the mirror ${mirrorUrl.trim() || '(no URL yet)'}`;
  return 'the Hugging Face hub (huggingface.co)';
}

/** The prompt the panel's choice makes (a template with an error: the bare name until it is fixed). */
export function promptSpecOf(
  kind: PromptKind,
  template: string,
  templateError: string,
  descriptions: Record<string, string>,
  classNames: readonly string[],
): PromptSpec {
  if (kind === 'template' && !templateError) return { kind: 'template', template };
  if (kind === 'descriptions') return { kind: 'descriptions', descriptions: Object.fromEntries(classNames.map((c) => [c, descriptions[c] ?? ''])) };
  return { kind: 'bare' };
}

/** "“a photo of a {}”", "class descriptions", "bare class name". */
export function promptLabelOf(p: PromptSpec): string {
  return p.kind === 'template' ? `“${p.template}”` : p.kind === 'descriptions' ? 'class descriptions' : 'bare class name';
}

/** "12.3 MB", "45 kB". */
export function mb(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(0, Math.round(bytes / 1e3))} kB`;
}

/** The failed file, relative to the model folder when it is a URL or path inside it ("onnx/text_model.onnx"). */
export function shortFile(f: string | undefined, id: string): string {
  if (!f) return 'the model files';
  const cut = [`/resolve/main/`, `/${id}/`].map((m) => f.lastIndexOf(m)).find((i) => i >= 0);
  if (cut === undefined) return f;
  const m = f.indexOf('/resolve/main/') === cut ? '/resolve/main/' : `/${id}/`;
  return f.slice(cut + m.length) || f;
}

/** What failed, in one sentence. */
export function failureText(f: LoadFailure & { where: string; modelId: string }): string {
  const file = shortFile(f.file, f.modelId);
  switch (f.reason) {
    case 'offline':
      return `Could not download ${file} of ${f.modelId} from ${f.where}: the network is unreachable or blocked.`;
    case 'not-found':
      return `${file === 'the model files' ? 'The model files' : file} of ${f.modelId} ${file === 'the model files' ? 'were' : 'was'} not found at ${f.where}.`;
    case 'bad-model':
      return `${file} of ${f.modelId} is not a usable CLIP text model.`;
    case 'device':
      return `The chosen device could not run ${f.modelId}.`;
    default:
      return `Loading ${f.modelId} from ${f.where} failed.`;
  }
}

/** Where a self-hosted model goes in this project ("public/models/Xenova/clip-vit-base-patch32/"). */
export function selfHostFolderOf(modelId: string): string {
  return /^[\w.-]+\/[\w.-]+$/.test(modelId.trim()) ? `public/models/${modelId.trim()}/` : 'public/models/<org>/<name>/';
}
