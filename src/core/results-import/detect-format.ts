/**
 * Which reader a results file needs, from its content (the file name only breaks ties):
 *   - a "CNN top1 curve: [...]" line anywhere → a PyCIL/PILOT log;
 *   - the whole text parses as JSON (an array, or an object) → JSON;
 *   - every non-blank line is a JSON object → JSON lines;
 *   - otherwise a CSV (or tab-separated) table.
 */
import { looksLikePycilLog } from './parse-pycil-log';
import type { ImportFormat } from './types';

export function detectFormat(text: string, fileName = ''): ImportFormat {
  const t = text.replace(/^\uFEFF/, '').trim();
  if (looksLikePycilLog(t)) return 'pycil-log';
  const lines = t
    .split(/\r\n|\n|\r/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (t.startsWith('[') || t.startsWith('{')) {
    try {
      JSON.parse(t);
      return 'json';
    } catch {
      // several objects, one per line
    }
    if (lines.length > 0 && lines.every((l) => l.startsWith('{'))) return 'jsonl';
    if (/\.jsonl$|\.ndjson$/i.test(fileName)) return 'jsonl';
    return 'json'; // invalid JSON: the JSON reader says where
  }
  if (/\.jsonl$|\.ndjson$/i.test(fileName)) return 'jsonl';
  if (/\.json$/i.test(fileName)) return 'json';
  return 'csv';
}
