/**
 * Many `cil-lab` command lines in one child process (argv-batch-child.mjs), for what must not run in the test process: a
 * command that could hang (a fifo, /dev/zero), abort V8 or grow without bound. The child is killed after
 * `timeoutMs`; a command line the child did not finish is reported with the child's exit code or signal and the end
 * of its stderr (a native stack, when V8 aborted).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface BatchResult {
  argv: string[];
  /** null when the child did not finish this command line */
  code: number | null;
  out: string;
  err: string;
  /** why there is no code: the child's exit code or signal, and the end of its stderr */
  died?: string;
}

const ROOT = resolve(__dirname, '..', '..', '..');

export function runBatch(
  vectors: string[][],
  options: { timeoutMs: number; maxOldSpaceMb?: number; cwd?: string } = { timeoutMs: 120_000 },
): Promise<BatchResult[]> {
  const file = join(mkdtempSync(join(tmpdir(), 'cil-batch-')), 'argv.json');
  writeFileSync(file, JSON.stringify(vectors));
  return new Promise((done) => {
    const args = [`--max-old-space-size=${options.maxOldSpaceMb ?? 2048}`, join(ROOT, 'tests/unit/cli/argv-batch-child.mjs'), file];
    const child = spawn(process.execPath, args, { cwd: options.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const results: BatchResult[] = [];
    let buffer = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      buffer += String(chunk);
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const r = JSON.parse(line) as { i: number; code: number; out: string; err: string };
        results.push({ argv: vectors[r.i], code: r.code, out: r.out, err: r.err });
      }
    });
    child.stderr.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (results.length < vectors.length) {
        const why = `child ended with ${signal ?? `exit ${code}`} during this command line; stderr: ${stderr.slice(-600)}`;
        results.push({ argv: vectors[results.length], code: null, out: '', err: '', died: why });
      }
      done(results);
    });
  });
}
