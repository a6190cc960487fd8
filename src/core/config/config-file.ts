/**
 * The experiment config as a JSON file, for the CLI (`--config FILE`) and for "download config" in the app:
 * the same object and the same validation as the share link (schema.ts), written in full so a reader sees every
 * setting. Reading accepts partial files (missing fields take their v1 fill-ins, as links do) and rejects
 * unknown fields (usually typos; the message suggests the known name).
 *
 * Pure: reading and writing bytes is the caller's job (the CLI passes `fs.readFile` / `fs.writeFile`), so this
 * file runs in a browser too.
 */
import { placeJsonError } from '../formats/json-errors';
import { CONFIG_VERSION, assertValidConfig, formatIssues, validateConfig, type ConfigIssue, type ExperimentConfig } from './schema';

export type ConfigFileResult = { ok: true; config: ExperimentConfig; warnings: string[] } | { ok: false; error: string; issues?: ConfigIssue[] };

/**
 * Parse and validate the text of a config file. `name` (the file's path) only makes messages clearer.
 * Never throws.
 */
export function parseConfigFile(text: string, name = 'the config file'): ConfigFileResult {
  if (typeof text !== 'string') return { ok: false, error: `${name}: a config file must be text (JSON).` };
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') {
    return { ok: false, error: `${name} is empty: write a JSON object such as {"version": ${CONFIG_VERSION}} (missing settings take their defaults).` };
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    const msg = (e as Error).message;
    // V8 names a position for some errors ("… at position 42") and not for others (then formats/json-errors.ts finds it).
    const at = placeJsonError(body, e);
    const where = at.line !== undefined && !at.engineSaysWhere ? ` at line ${at.line}, column ${at.column}` : '';
    return { ok: false, error: `${name} is not valid JSON${where} (${msg}).` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: `${name} must hold one JSON object ({…}) with the experiment's settings.` };
  }
  const { config, errors, warnings } = validateConfig(value);
  if (errors.length > 0) {
    const n = errors.length;
    return { ok: false, error: `${name} has ${n} invalid setting${n === 1 ? '' : 's'}: ${formatIssues(errors, 50)}`, issues: errors };
  }
  return { ok: true, config, warnings: warnings.map((w) => w.message) };
}

/**
 * The file text for a config: every setting written out (version first, then in schema order), two-space
 * indented, with a final newline. Deterministic. Throws a ConfigError for an invalid config.
 */
export function formatConfigFile(config: ExperimentConfig): string {
  const full = assertValidConfig(config);
  return `${JSON.stringify(full, null, 2)}\n`;
}

/** Read and validate a config file with the caller's reader (e.g. `(p) => fs.readFile(p, 'utf8')`). Never throws. */
export async function loadConfigFile(path: string, readText: (path: string) => Promise<string>): Promise<ConfigFileResult> {
  let text: string;
  try {
    text = await readText(path);
  } catch (e) {
    const code = (e as { code?: string }).code;
    const why = code === 'ENOENT' ? 'no such file' : e instanceof Error ? e.message : String(e);
    return { ok: false, error: `Cannot read the config file ${path} (${why}).` };
  }
  return parseConfigFile(text, path);
}

/** Write a config file with the caller's writer (e.g. `(p, t) => fs.writeFile(p, t)`). Throws ConfigError when invalid. */
export async function saveConfigFile(path: string, config: ExperimentConfig, writeText: (path: string, text: string) => Promise<void>): Promise<void> {
  const text = formatConfigFile(config);
  await writeText(path, text);
}
