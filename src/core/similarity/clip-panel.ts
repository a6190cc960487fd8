/**
 * The CLIP panel's settings as the experiment says them (the panel: src/ui/common/clip/ClipSettings.svelte): what it
 * starts from for a config's CLIP text settings, and what it hands back, with null for what is invalid right now
 * (the config then keeps its own). Pure; the Orderings lab's binding (src/core/labs/orderings/binding.ts) reads and
 * writes the config through them.
 */
import type { ClipTextConfig, ClipWeightSource, ExperimentConfig } from '../config/types';
import type { PromptSpec } from './prompts';

/** What the CLIP panel starts from; the fields of its saved settings. */
export interface ClipInitial {
  modelId: string;
  dtype: 'q8' | 'fp32';
  weights: 'hub' | 'self-hosted' | 'mirror';
  folder?: string;
  mirrorUrl?: string;
  device?: 'webgpu' | 'wasm';
  promptKind: 'bare' | 'template' | 'descriptions';
  template?: string;
  descriptions?: Record<string, string>;
}

/** What the CLIP panel reports of its settings; null parts are invalid right now (the config keeps its own). */
export interface ClipSettingsOut {
  model: string;
  dtype: 'q8' | 'fp32';
  prompt: PromptSpec | null;
  weights: ClipWeightSource | null;
  device: 'webgpu' | 'wasm';
  /** The device the current embeddings were made on ('webgpu', 'wasm', 'cache'), when there are any. */
  usedDevice?: string | null;
}

/** The panel's starting settings from CLIP text settings of a config (`embed`: the config's embedding backend). */
export function clipInitialOf(sim: ClipTextConfig, embed: ExperimentConfig['backend']['embed']): ClipInitial {
  const p = sim.prompt;
  const w = sim.weights;
  return {
    modelId: sim.model,
    dtype: sim.dtype,
    weights: w.kind,
    ...(w.kind === 'self-hosted' ? { folder: w.path } : {}),
    ...(w.kind === 'mirror' ? { mirrorUrl: w.url } : {}),
    // the panel's "WebGPU" is the engine's order (WebGPU, else wasm): the config's 'auto'
    device: embed === 'wasm' || embed === 'cpu' ? 'wasm' : 'webgpu',
    promptKind: p.kind,
    ...(p.kind === 'template' ? { template: p.template } : {}),
    ...(p.kind === 'descriptions' ? { descriptions: { ...p.descriptions } } : {}),
  };
}
