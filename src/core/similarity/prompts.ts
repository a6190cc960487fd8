/**
 * The text CLIP embeds for a class (docs/science.md §6 "CLIP text"; EDGE paper App. E.3).
 *
 * - `bare`: the class name exactly as given — what the EDGE authors' code does (`clip.tokenize(name)` on the
 *   dataset's own names, e.g. CIFAR-100's `lawn_mower`, underscores included). Decision: underscores are KEPT by
 *   default, so a bare embedding reproduces theirs (CLIP's tokenizer reads `lawn_mower` as `lawn` `_` `mower`).
 * - `template`: a sentence with exactly one `{}` where the class name goes, e.g. `a photo of a {}` (CLIP's
 *   zero-shot prompts). Decision: underscores in the class name become spaces here by default (`a photo of a lawn
 *   mower`), because a template is meant to read as natural language, like OpenAI's cleaned-up class names.
 * - `descriptions`: per-class free text — the paper's caption expansion for specialist labels (App. E.3.2: one
 *   concise, visually descriptive caption per class, encoded *instead of* the name). A class without a
 *   (non-blank) description falls back to `template` if given, else to the bare name. Descriptions are used as
 *   written (only trimmed, whitespace runs collapsed); they are looked up by the exact class name first, then
 *   ignoring case, spaces, underscores and hyphens.
 * `underscores` overrides the default: 'keep' or 'space' (applies to the class name only, never to a description).
 *
 * A bad template is a PromptError with one sentence saying what is wrong.
 */

export type PromptSpec =
  | { kind: 'bare'; underscores?: UnderscoreRule }
  | { kind: 'template'; template: string /* contains {} */; underscores?: UnderscoreRule }
  | { kind: 'descriptions'; descriptions: Record<string, string>; template?: string; underscores?: UnderscoreRule };

export type UnderscoreRule = 'keep' | 'space';

export class PromptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PromptError';
  }
}

/** The paper's template for generating a caption with an LLM (App. E.3.2), for the UI to show / copy. */
export const CAPTION_PROMPT_TEMPLATE =
  'Generate one concise, visually descriptive caption (8–20 words) that highlights the typical visual appearance, ' +
  'color, texture, and anatomical context of a {class_name} lesion in medical images.';

export const DEFAULT_PROMPT: PromptSpec = { kind: 'bare' };

/** Throws PromptError unless `template` has exactly one `{}` (and is not blank). Returns it trimmed. */
export function validateTemplate(template: string): string {
  if (typeof template !== 'string') throw new PromptError('The prompt template must be text.');
  const t = template.trim();
  if (t === '') throw new PromptError('The prompt template is empty; write e.g. "a photo of a {}".');
  const count = t.split('{}').length - 1;
  if (count === 0) {
    const other = /\{[^{}]*\}/.exec(t)?.[0];
    throw new PromptError(
      other
        ? `The prompt template ${JSON.stringify(t)} uses ${other}; write {} where the class name goes, e.g. "a photo of a {}".`
        : `The prompt template ${JSON.stringify(t)} has no {} where the class name goes; write e.g. "a photo of a {}".`,
    );
  }
  if (count > 1) {
    throw new PromptError(`The prompt template ${JSON.stringify(t)} has ${count} {}; it needs exactly one, where the class name goes.`);
  }
  return t;
}

/** Throws PromptError if the spec is malformed. */
export function validatePromptSpec(spec: PromptSpec): PromptSpec {
  if (!spec || typeof spec !== 'object') throw new PromptError('The prompt setting is missing.');
  const rule = (spec as { underscores?: unknown }).underscores;
  if (rule !== undefined && rule !== 'keep' && rule !== 'space') {
    throw new PromptError(`Unknown underscore rule ${JSON.stringify(rule)}: use "keep" or "space".`);
  }
  switch (spec.kind) {
    case 'bare':
      return spec;
    case 'template':
      validateTemplate(spec.template);
      return spec;
    case 'descriptions': {
      if (!spec.descriptions || typeof spec.descriptions !== 'object' || Array.isArray(spec.descriptions)) {
        throw new PromptError('Descriptions must be an object mapping class names to text.');
      }
      for (const [k, v] of Object.entries(spec.descriptions)) {
        if (typeof v !== 'string') throw new PromptError(`The description of ${JSON.stringify(k)} is not text.`);
      }
      if (spec.template !== undefined) validateTemplate(spec.template);
      return spec;
    }
    default:
      throw new PromptError(`Unknown prompt kind ${JSON.stringify((spec as { kind?: unknown }).kind)}: use bare, template or descriptions.`);
  }
}

function looseKey(s: string): string {
  return s
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

function cleanText(s: string): string {
  return s.trim().replace(/\s+/g, ' ');
}

function nameFor(className: string, rule: UnderscoreRule): string {
  return rule === 'space' ? className.replace(/_/g, ' ').replace(/\s+/g, ' ').trim() : className;
}

function fill(template: string, name: string): string {
  // split/join, not String.replace: a class name containing "$&" must not be read as a replacement pattern.
  return validateTemplate(template).split('{}').join(name);
}

/** The description of a class, if any: exact key first, then case/space/underscore/hyphen-insensitive. */
export function descriptionFor(className: string, descriptions: Record<string, string>): string | undefined {
  const exact = descriptions[className];
  if (typeof exact === 'string' && exact.trim() !== '') return cleanText(exact);
  const key = looseKey(className);
  for (const [k, v] of Object.entries(descriptions)) {
    if (looseKey(k) === key && typeof v === 'string' && v.trim() !== '') return cleanText(v);
  }
  return undefined;
}

/** The text to embed for one class under a prompt spec. */
export function promptText(className: string, spec: PromptSpec = DEFAULT_PROMPT): string {
  switch (spec.kind) {
    case 'bare':
      return nameFor(className, spec.underscores ?? 'keep');
    case 'template':
      return fill(spec.template, nameFor(className, spec.underscores ?? 'space'));
    case 'descriptions': {
      const d = descriptionFor(className, spec.descriptions);
      if (d !== undefined) return d;
      return spec.template !== undefined
        ? fill(spec.template, nameFor(className, spec.underscores ?? 'space'))
        : nameFor(className, spec.underscores ?? 'keep');
    }
    default:
      validatePromptSpec(spec);
      throw new PromptError('Unknown prompt kind.');
  }
}

/** promptText for every class, validating the spec once. */
export function promptTexts(classNames: readonly string[], spec: PromptSpec = DEFAULT_PROMPT): string[] {
  validatePromptSpec(spec);
  return classNames.map((c) => promptText(c, spec));
}

/** A short, stable label of a prompt spec, for output and cache keys ('bare', 'template:a photo of a {}', …). */
export function promptLabel(spec: PromptSpec): string {
  const u = spec.underscores ? `;underscores=${spec.underscores}` : '';
  switch (spec.kind) {
    case 'bare':
      return `bare${u}`;
    case 'template':
      return `template:${spec.template.trim()}${u}`;
    case 'descriptions':
      return `descriptions(${Object.keys(spec.descriptions).length})${spec.template !== undefined ? `+template:${spec.template.trim()}` : ''}${u}`;
  }
}
