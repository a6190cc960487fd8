#!/usr/bin/env node
// Copies TensorFlow.js's WebAssembly backend binaries (node_modules/@tensorflow/tfjs-backend-wasm/dist/*.wasm:
// plain, SIMD, and threaded-SIMD) into public/tfjs/, so the app serves them itself and never asks a CDN:
// src/workers/train.worker.ts calls the engine's `setWasmBase(`${BASE_URL}tfjs/`)`.
// tfjs picks the threaded-SIMD build when SharedArrayBuffer is available, i.e. when the page is cross-origin isolated
// (COOP/COEP headers or the service-worker fallback: docs/deploy.md); otherwise the SIMD (or plain) one.
import { copyRuntimeFiles } from './copy-runtime-files.mjs';

copyRuntimeFiles({
  tag: 'prepare-tfjs-wasm',
  from: ['node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist'],
  to: ['public', 'tfjs'],
  pick: (f) => f.endsWith('.wasm'),
  what: 'tfjs-backend-wasm binaries',
});
