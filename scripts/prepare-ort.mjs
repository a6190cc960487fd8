#!/usr/bin/env node
// Copies onnxruntime-web's WebAssembly runtime (node_modules/onnxruntime-web/dist) into public/ort/, so the app
// serves it itself and never asks a CDN: src/workers/embed.worker.ts sets onnxruntime's `wasmPaths` to
// `${BASE_URL}ort/`. Only the asyncify variant (.wasm + its .mjs loader) is copied: it is what onnxruntime-web
// loads for both its wasm and WebGPU execution providers in this build (vite.config.ts resolves the build that
// loads it from there); the other variants would only add ~60 MB to every build.
import { copyRuntimeFiles } from './copy-runtime-files.mjs';

copyRuntimeFiles({
  tag: 'prepare-ort',
  from: ['node_modules', 'onnxruntime-web', 'dist'],
  to: ['public', 'ort'],
  pick: (f) => /^ort-wasm-simd-threaded\.asyncify\.(wasm|mjs)$/.test(f),
  what: 'onnxruntime-web files',
});
