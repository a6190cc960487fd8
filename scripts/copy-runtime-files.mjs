// Shared by prepare-ort.mjs and prepare-tfjs-wasm.mjs: copy WebAssembly runtime files from an installed npm
// package into public/<dir>/ so the app serves them itself (never a CDN). Node built-ins only. Idempotent: a file is
// copied only when missing, different in size or older than its source; `--force` copies everything. Prints one
// line saying what it did; exits 1 with a message when the package or its files are missing.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** @param {{ tag: string, from: string[], to: string[], pick: (f: string) => boolean, what: string }} o */
export function copyRuntimeFiles({ tag, from, to, pick, what }) {
  const src = join(root, ...from);
  const out = join(root, ...to);
  const force = process.argv.includes('--force');
  if (!existsSync(src)) {
    console.error(`[${tag}] ${relative(root, src)} is missing: run npm install first.`);
    process.exit(1);
  }
  const files = readdirSync(src).filter(pick);
  if (!files.some((f) => f.endsWith('.wasm'))) {
    console.error(`[${tag}] no matching .wasm files in ${relative(root, src)}.`);
    process.exit(1);
  }
  mkdirSync(out, { recursive: true });
  let copied = 0;
  let bytes = 0;
  for (const f of files) {
    const a = statSync(join(src, f));
    bytes += a.size;
    const target = join(out, f);
    if (!force && existsSync(target)) {
      const b = statSync(target);
      if (b.size === a.size && b.mtimeMs >= a.mtimeMs) continue;
    }
    copyFileSync(join(src, f), target);
    copied++;
  }
  const mb = (bytes / 1e6).toFixed(1);
  console.log(
    copied
      ? `[${tag}] copied ${copied} of ${files.length} ${what} (${mb} MB in all) to ${relative(root, out)}/`
      : `[${tag}] ${relative(root, out)}/ is up to date (${files.length} ${what}, ${mb} MB)`,
  );
}
