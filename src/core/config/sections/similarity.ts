/**
 * The similarity section: where the class similarity comes from (docs/science.md §6) — WordNet with optional
 * synset pins, CLIP text embeddings with a prompt and a weight source, an uploaded file (referenced by name and
 * content hash, never carried), or the class prototypes of the config's feature source (sections/features.ts).
 */
import { validateTemplate, type PromptSpec } from '../../similarity/prompts';
import { Checker, fileRef, isPlainObject, join, reuploadWarning, show } from '../checker';
import { DEFAULT_CLIP_MODEL, V1_FILL } from '../defaults';
import { CONFIG_LIMITS } from '../limits';
import type { ClipTextConfig, ClipWeightSource, SimilarityConfig } from '../types';

export type { ClipTextConfig };
import type { ConfigSection } from './section';

const SYNSET = /^n\d{8}$/;
const HUB_MODEL = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/;

function promptOf(c: Checker, v: unknown, path: string): PromptSpec {
  const fill = V1_FILL.clip.prompt;
  if (v === undefined) return { ...fill };
  if (!isPlainObject(v)) {
    c.error(path, `Must be a prompt ({"kind": "bare" | "template" | "descriptions", …}); got ${show(v)}.`);
    return { ...fill };
  }
  const kind = c.choice(v.kind, join(path, 'kind'), ['bare', 'template', 'descriptions'] as const, 'bare');
  const known =
    kind === 'bare' ? ['kind', 'underscores'] : kind === 'template' ? ['kind', 'template', 'underscores'] : ['kind', 'descriptions', 'template', 'underscores'];
  c.object(v, path, known);
  const underscores = v.underscores === undefined ? undefined : c.choice(v.underscores, join(path, 'underscores'), ['keep', 'space'] as const, 'keep');
  const template = (required: boolean): string | undefined => {
    if (v.template === undefined) {
      if (required) c.error(join(path, 'template'), 'Missing: a template with {} where the class name goes, e.g. "a photo of a {}".');
      return undefined;
    }
    if (typeof v.template !== 'string' || v.template.length > CONFIG_LIMITS.textLength) {
      c.error(join(path, 'template'), `Must be text with {} where the class name goes; got ${show(v.template)}.`);
      return undefined;
    }
    try {
      return validateTemplate(v.template);
    } catch (e) {
      c.error(join(path, 'template'), (e as Error).message);
      return undefined;
    }
  };
  // The underscore rule is dropped when it equals the kind's own default (prompts.ts), so equal prompts are equal configs.
  switch (kind) {
    case 'bare':
      return underscores === 'space' ? { kind, underscores } : { kind };
    case 'template': {
      const t = template(true);
      if (t === undefined) return { ...fill };
      return underscores === 'keep' ? { kind, template: t, underscores } : { kind, template: t };
    }
    case 'descriptions': {
      const t = template(false);
      const dpath = join(path, 'descriptions');
      let descriptions: Record<string, string> = {};
      if (v.descriptions === undefined) c.error(dpath, 'Missing: an object mapping class names to their descriptions.');
      else if (!isPlainObject(v.descriptions)) c.error(dpath, `Must be an object mapping class names to text; got ${show(v.descriptions)}.`);
      else {
        const entries = Object.entries(v.descriptions);
        if (entries.length > CONFIG_LIMITS.classes) c.error(dpath, `Must have at most ${CONFIG_LIMITS.classes} descriptions; got ${entries.length}.`);
        else {
          const bad = entries.find(([, d]) => typeof d !== 'string' || d.length > CONFIG_LIMITS.textLength);
          if (bad) c.error(join(dpath, bad[0]), `A description must be text of at most ${CONFIG_LIMITS.textLength} characters; got ${show(bad[1])}.`);
          else descriptions = Object.fromEntries(entries) as Record<string, string>;
        }
      }
      const ownDefault = t !== undefined ? 'space' : 'keep';
      const spec: PromptSpec = { kind, descriptions };
      if (t !== undefined) spec.template = t;
      if (underscores !== undefined && underscores !== ownDefault) spec.underscores = underscores;
      return spec;
    }
  }
}

export function weightsOf(c: Checker, v: unknown, path: string): ClipWeightSource {
  if (v === undefined) return { kind: 'hub' };
  if (!isPlainObject(v)) {
    c.error(path, `Must be a weight source ({"kind": "hub" | "self-hosted" | "mirror", …}); got ${show(v)}.`);
    return { kind: 'hub' };
  }
  const kind = c.choice(v.kind, join(path, 'kind'), ['hub', 'self-hosted', 'mirror'] as const, 'hub');
  c.object(v, path, kind === 'hub' ? ['kind'] : kind === 'self-hosted' ? ['kind', 'path'] : ['kind', 'url']);
  if (kind === 'self-hosted') {
    const p = c.text(v.path, join(path, 'path'), { max: 1000, what: 'a folder or URL path (e.g. "/models/")' });
    return p === undefined ? { kind: 'hub' } : { kind, path: p };
  }
  if (kind === 'mirror') {
    if (typeof v.url !== 'string' || !/^https?:\/\/\S+$/i.test(v.url) || v.url.length > 1000) {
      c.error(join(path, 'url'), `Must be an http(s) URL (e.g. "https://hf-mirror.com/"); got ${show(v.url)}.`);
      return { kind: 'hub' };
    }
    return { kind, url: v.url };
  }
  return { kind: 'hub' };
}

/** Check CLIP text settings at `path` (an object; `extra` are other keys allowed beside them). */
export function clipTextOf(c: Checker, v: Record<string, unknown>, path: string, extra: readonly string[] = []): ClipTextConfig {
  c.object(v, path, [...extra, 'model', 'dtype', 'prompt', 'weights']);
  let model: string = V1_FILL.clip.model;
  if (v.model !== undefined) {
    if (typeof v.model !== 'string' || !HUB_MODEL.test(v.model) || v.model.length > 200) {
      c.error(join(path, 'model'), `Must be a model id like "${DEFAULT_CLIP_MODEL}"; got ${show(v.model)}.`);
    } else model = v.model;
  }
  return {
    model,
    dtype: c.choice(v.dtype, join(path, 'dtype'), ['q8', 'fp32'] as const, V1_FILL.clip.dtype),
    prompt: promptOf(c, v.prompt, join(path, 'prompt')),
    weights: weightsOf(c, v.weights, join(path, 'weights')),
  };
}

function similarityOf(c: Checker, v: unknown): SimilarityConfig {
  const path = 'similarity';
  if (v === undefined) return { kind: 'wordnet', pins: {} };
  if (!isPlainObject(v)) {
    c.error(path, `Must be a similarity source ({"kind": "wordnet" | "clip" | "upload" | "features", …}); got ${show(v)}.`);
    return { kind: 'wordnet', pins: {} };
  }
  const kind = c.choice(v.kind, 'similarity.kind', ['wordnet', 'clip', 'upload', 'features'] as const, 'wordnet');
  switch (kind) {
    case 'wordnet': {
      c.object(v, path, ['kind', 'pins']);
      let pins: Record<string, string> = {};
      if (v.pins !== undefined) {
        if (!isPlainObject(v.pins)) c.error('similarity.pins', `Must be an object mapping class names to WordNet synset ids; got ${show(v.pins)}.`);
        else {
          const entries = Object.entries(v.pins);
          const bad = entries.find(([, s]) => typeof s !== 'string' || !SYNSET.test(s));
          if (entries.length > CONFIG_LIMITS.classes) c.error('similarity.pins', `Must have at most ${CONFIG_LIMITS.classes} pins; got ${entries.length}.`);
          else if (bad)
            c.error(join('similarity.pins', bad[0]), `Must be a WordNet 3.1 noun synset id ("n" + 8 digits, e.g. "n02084071"); got ${show(bad[1])}.`);
          else pins = Object.fromEntries(entries) as Record<string, string>;
        }
      }
      return { kind, pins };
    }
    case 'clip':
      return { kind, ...clipTextOf(c, v, path, ['kind']) };
    case 'upload': {
      c.object(v, path, ['kind', 'file']);
      const ref = fileRef(c, v.file, 'similarity.file');
      if (!ref) return { kind: 'wordnet', pins: {} };
      reuploadWarning(c, 'similarity.file', ref, 'similarity file');
      return { kind, file: ref };
    }
    case 'features':
      // the prototypes of the config's feature source (the features section says which)
      c.object(v, path, ['kind']);
      return { kind };
  }
}

export const similaritySection: ConfigSection<'similarity'> = { check: similarityOf };
