/// <reference types="vitest/config" />
import { defaultClientConditions, defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

export default defineConfig({
  plugins: [svelte()],
  // onnxruntime-web's default build bundles its 27 MB .wasm as an asset; the app serves it from public/ort/ instead
  // (scripts/prepare-ort.mjs; the embed worker sets wasmPaths), so resolve the build that loads it from there.
  resolve: { conditions: ['onnxruntime-web-use-extern-wasm', ...defaultClientConditions] },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  worker: { format: 'es' },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
