#!/usr/bin/env node
// Copies TensorFlow.js's WebAssembly backend binaries (node_modules/@tensorflow/tfjs-backend-wasm/dist/*.wasm:
// plain, SIMD, and threaded-SIMD) into public/tfjs/, so the app serves them itself and never asks a CDN:
// src/workers/train.worker.ts calls the engine's `setWasmBase(`${BASE_URL}tfjs/`)`.
// Node built-ins only. Idempotent: a file is copied only when missing, different in size or older than its
// source; `--force` copies everything. Prints one line saying what it did.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist');
const out = join(root, 'public', 'tfjs');
const force = process.argv.includes('--force');

if (!existsSync(src)) {
  console.error(`[prepare-tfjs-wasm] ${relative(root, src)} is missing: run npm install first.`);
  process.exit(1);
}
const files = readdirSync(src).filter((f) => f.endsWith('.wasm'));
if (files.length === 0) {
  console.error(`[prepare-tfjs-wasm] no .wasm files in ${relative(root, src)}.`);
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
    ? `[prepare-tfjs-wasm] copied ${copied} of ${files.length} tfjs-backend-wasm binaries (${mb} MB in all) to ${relative(root, out)}/`
    : `[prepare-tfjs-wasm] ${relative(root, out)}/ is up to date (${files.length} tfjs-backend-wasm binaries, ${mb} MB)`,
);
