/** Run the CLI's `main` in-process with stdout/stderr captured; stdout parsed as JSON when it is JSON. */
import { afterEach, beforeEach, vi } from 'vitest';
import { main } from '../../../src/cli/main';

export function captureCli(): (...argv: string[]) => Promise<{ code: number; json: any; out: string; err: string }> {
  let out = '';
  let err = '';
  beforeEach(() => {
    vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
  });
  afterEach(() => vi.restoreAllMocks());
  return async (...argv) => {
    out = '';
    err = '';
    const code = await main(argv);
    let json: any = null;
    try {
      json = JSON.parse(out);
    } catch {
      json = out;
    }
    return { code, json, out, err };
  };
}
