/**
 * The share link, an ExperimentConfig in the URL hash as `#v1.<data>` (docs/architecture.md "Config"), and the config
 * hash that keys stored results. Deterministic: the same config always gives the same link and hash (canonical key
 * order, compact form: schema.ts compactConfig). Because both are of the compact form, a field added to the schema
 * later (with a fill-in that reproduces today's behaviour) changes no existing link or hash: stored results survive
 * upgrades.
 */
import LZString from 'lz-string';
import {
  CONFIG_VERSION,
  ConfigError,
  canonicalJson,
  compactConfig,
  defaultConfig,
  formatIssues,
  validateConfig,
  type ConfigIssue,
  type ExperimentConfig,
} from './schema';

/** The hash prefix of this version's links. */
export const LINK_PREFIX = `v${CONFIG_VERSION}.`;

/**
 * Longest data part accepted (characters). lz-string can expand a crafted input quadratically, so a hostile link
 * must stay small; 16 384 characters hold about 12 KB compressed (roughly 40 KB of config JSON: hundreds of
 * custom class names or CLIP descriptions). Bigger experiments travel as a config file.
 */
export const MAX_LINK_DATA_CHARS = 16_384;

export type DecodeResult = { ok: true; config: ExperimentConfig; warnings: string[] } | { ok: false; error: string; issues?: ConfigIssue[] };

// ───────────────────────────── base64url ─────────────────────────────

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63];
  }
  return out;
}

/** Bytes of unpadded base64url text, or null when it is not valid base64url. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const v = code < 128 ? INDEX[code] : -1;
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

// ───────────────────────────── FNV-1a 64 ─────────────────────────────

/** FNV-1a 64-bit of bytes, as 16 lowercase hex digits (two 32-bit halves; exact in doubles). */
export function fnv1a64(bytes: Uint8Array): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]) >>> 0;
    // × prime 0x100000001b3 = 2^40 + 0x1b3: (hi·2^32 + lo)·0x1b3 + (lo·2^8)·2^32, mod 2^64
    const loMul = lo * 0x1b3;
    const carry = Math.floor(loMul / 0x100000000);
    hi = (hi * 0x1b3 + carry + ((lo * 256) % 0x100000000)) % 0x100000000;
    lo = loMul % 0x100000000;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

const utf8 = new TextEncoder();

/** The content hash a FileRef records for an uploaded file: "fnv1a64:<16 hex>". */
export function contentHash(bytes: Uint8Array): string {
  return `fnv1a64:${fnv1a64(bytes)}`;
}

/**
 * The key under which results are stored: FNV-1a 64-bit (16 hex digits) of the canonical JSON of the compact config
 * without `ui` and `backend`. So every setting that affects numbers is covered (lab, dataset and its file hashes,
 * classes, task sizes, similarity, protocols, ground-truth budget, model, strategies and every hyper-parameter,
 * training, data, seeds, conformal, the labs' sections), and two are ignored: `ui` (what is shown of the same
 * results: teaching mode, the selected ordering, final/AIA) and `backend` (a preference, not what ran: the engine
 * falls back, and each stored result records the backend that ran). Throws a ConfigError for an invalid config.
 */
export function configHash(config: ExperimentConfig): string {
  const compact = compactConfig(config);
  delete compact.ui;
  delete compact.backend;
  return fnv1a64(utf8.encode(canonicalJson(compact)));
}

// ───────────────────────────── encode ─────────────────────────────

/**
 * `#v1.<base64url>` for a config: base64url (RFC 4648 §5, no padding) of lz-string's `compressToUint8Array` of the
 * canonical compact JSON. Not `compressToEncodedURIComponent`: its `+` and `$` are read as a space by some query
 * decoders and as maths by GitHub Markdown, while base64url's characters are all unreserved (RFC 3986) and survive
 * email, chat and Markdown. A link never ends in `_` (which Markdown drops from a bare autolink): lz-string's
 * end-of-stream code and padding leave the last character's lowest bit 0 (tested). Throws a ConfigError when the
 * config is invalid (a link is never made of something that would not open) or too large for a link (then share
 * the config file).
 */
export function encodeConfigToHash(config: ExperimentConfig): string {
  const compact = compactConfig(config);
  const data = toBase64Url(LZString.compressToUint8Array(canonicalJson(compact)));
  if (data.length > MAX_LINK_DATA_CHARS) {
    throw new ConfigError(
      `This experiment is too large for a link (${data.length} characters of data; links hold at most ${MAX_LINK_DATA_CHARS}): share the config file instead.`,
    );
  }
  return `#${LINK_PREFIX}${data}`;
}

// ───────────────────────────── decode ─────────────────────────────

const fail = (error: string, issues?: ConfigIssue[]): DecodeResult => (issues ? { ok: false, error, issues } : { ok: false, error });

const DAMAGED = 'Copy the whole link again from where it was shared.';

/**
 * Read a config from a URL hash (`#v1.…`), a hash without "#", or a whole URL. Forgiving about what copying does to
 * a link (whitespace and line breaks from email wrapping, percent-encoding, trailing punctuation from prose,
 * standard base64 `+ / =`), strict about everything else, with one message saying what is wrong. Never throws. An
 * empty hash gives the default experiment; an unknown version, damaged data or invalid settings give
 * `{ok: false, error}`.
 */
export function decodeConfigFromHash(hash: string): DecodeResult {
  try {
    return decode(hash);
  } catch (e) {
    // Defensive: nothing above should throw, but a link must never break the page.
    return fail(`This link could not be read (${e instanceof Error ? e.message : String(e)}). ${DAMAGED}`);
  }
}

/**
 * Longest text `decodeConfigFromHash` looks at: the data limit with room for a whole URL in front, percent-encoding
 * (three characters per encoded one) and the line breaks of email wrapping. Checked before any other work, so a
 * hostile megabyte-long "link" costs nothing.
 */
export const MAX_LINK_INPUT_CHARS = 3 * MAX_LINK_DATA_CHARS + 4096;

/** `s` without the run of `chars` at its end: one backward scan (a `[…]+$` regex is quadratic on a long run). */
function trimEndOf(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return s.slice(0, end);
}

function decode(input: string): DecodeResult {
  if (typeof input !== 'string') return fail('A link must be text.');
  if (input.length > MAX_LINK_INPUT_CHARS) {
    return fail(
      `This link is too long (${input.length} characters; CIL Lab links hold at most ${MAX_LINK_DATA_CHARS} characters of data). Share the config file instead.`,
    );
  }
  // Email wraps long links (a link never contains whitespace), and some mail and chat tools percent-encode links
  // ("%23v1.…", a wrapped line as "%0A", a space as "%20"): whitespace is dropped before decoding (a break inside
  // "%2\n3") and again after it (what "%20"/"%0A" decode to).
  let s = input.replace(/\s+/g, '');
  if (s.includes('%')) {
    try {
      s = decodeURIComponent(s).replace(/\s+/g, '');
    } catch {
      /* keep it as it is: the checks below say what is wrong */
    }
  }
  const at = s.indexOf('#');
  if (at >= 0) s = s.slice(at + 1);
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = ''; // a whole URL without a hash: the default experiment
  if (s === '') return { ok: true, config: defaultConfig(), warnings: [] };

  const m = /^v(\d{1,6})(?:\.|$)/i.exec(s);
  if (!m) {
    return fail(`This is not a CIL Lab experiment link: the part after "#" should start with "${LINK_PREFIX}". ${DAMAGED}`);
  }
  const version = Number(m[1]);
  if (version > CONFIG_VERSION) {
    return fail(`This link was made by a newer CIL Lab (v${version}); this version reads v${CONFIG_VERSION} links.`);
  }
  if (version !== CONFIG_VERSION) {
    return fail(`This link says it is version v${version}, which no CIL Lab makes; this version reads v${CONFIG_VERSION} links.`);
  }
  // Trailing punctuation picked up from prose ("see …#v1.abc).") is never part of the data.
  let data = trimEndOf(s.slice(m[0].length), '.,;:!?)]}>\'"');
  data = trimEndOf(data.replace(/\+/g, '-').replace(/\//g, '_'), '=');
  if (data === '') return fail(`This link is incomplete: nothing follows "${LINK_PREFIX}" (was it cut off when copied?). ${DAMAGED}`);
  if (data.length > MAX_LINK_DATA_CHARS) {
    return fail(`This link is too long (${data.length} characters of data; CIL Lab links hold at most ${MAX_LINK_DATA_CHARS}). Share the config file instead.`);
  }
  const badChar = /[^A-Za-z0-9_-]/.exec(data);
  if (badChar) {
    return fail(`This link is damaged: its data contains ${JSON.stringify(badChar[0])}, which a CIL Lab link never contains. ${DAMAGED}`);
  }
  const bytes = fromBase64Url(data);
  if (!bytes || bytes.length < 2 || bytes.length % 2 !== 0) {
    return fail(`This link is damaged or incomplete (was it cut off when copied?): its data has the wrong length. ${DAMAGED}`);
  }
  let json: string | null = null;
  try {
    json = LZString.decompressFromUint8Array(bytes);
  } catch {
    json = null;
  }
  if (json === null || json === '') {
    return fail(`This link is damaged or incomplete (was it cut off when copied?): its data does not decompress. ${DAMAGED}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    return fail(`This link is damaged: its data decompresses, but not to valid JSON (${(e as Error).message}). ${DAMAGED}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(`This link is damaged: its data is not an experiment config. ${DAMAGED}`);
  }
  const { config, errors, warnings } = validateConfig(value);
  if (errors.length > 0) {
    const n = errors.length;
    return fail(`This link's experiment has ${n} invalid setting${n === 1 ? '' : 's'}: ${formatIssues(errors)}`, errors);
  }
  return { ok: true, config, warnings: warnings.map((w) => w.message) };
}
