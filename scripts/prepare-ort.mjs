#!/usr/bin/env node
// Copies onnxruntime-web's WebAssembly runtime (node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded*.wasm
// and the matching *.mjs loaders) into public/ort/, so the app serves them itself and never asks a CDN for
// them: src/workers/embed.worker.ts sets onnxruntime's `wasmPaths` to `${BASE_URL}ort/`.
// Node built-ins only. Idempotent: a file is copied only when missing or different in size or older than its
// source; `--force` copies everything. Prints one line saying what it did.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'node_modules', 'onnxruntime-web', 'dist');
const out = join(root, 'public', 'ort');
const force = process.argv.includes('--force');

if (!existsSync(src)) {
  console.error(`[prepare-ort] ${relative(root, src)} is missing: run npm install first.`);
  process.exit(1);
}
// Only the asyncify variant is used: it is what onnxruntime-web loads for both its wasm and WebGPU (JSEP-free)
// execution providers in this build; the other variants would only add ~60 MB to every build.
const files = readdirSync(src).filter((f) => /^ort-wasm-simd-threaded\.asyncify\.(wasm|mjs)$/.test(f));
if (!files.some((f) => f.endsWith('.wasm'))) {
  console.error(`[prepare-ort] no ort-wasm-simd-threaded*.wasm in ${relative(root, src)}.`);
  process.exit(1);
}
mkdirSync(out, { recursive: true });
let copied = 0;
let bytes = 0;
for (const f of files) {
  const from = join(src, f);
  const to = join(out, f);
  const a = statSync(from);
  bytes += a.size;
  if (!force && existsSync(to)) {
    const b = statSync(to);
    if (b.size === a.size && b.mtimeMs >= a.mtimeMs) continue;
  }
  copyFileSync(from, to);
  copied++;
}
const mb = (bytes / 1e6).toFixed(1);
console.log(
  copied
    ? `[prepare-ort] copied ${copied} of ${files.length} onnxruntime-web files (${mb} MB in all) to ${relative(root, out)}/`
    : `[prepare-ort] ${relative(root, out)}/ is up to date (${files.length} onnxruntime-web files, ${mb} MB)`,
);
