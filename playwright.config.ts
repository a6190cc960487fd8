import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser. WebGPU works on SwiftShader with --enable-unsafe-webgpu.
// PW_PORT picks another port for the preview server (several checkouts testing on one machine).
const port = Number(process.env.PW_PORT ?? 4173);
// a private build folder per port, so two checkouts (or helpers) testing at once never serve each other's half-written build
const outDir = process.env.PW_PORT ? `dist-${port}` : 'dist';
// PW_DIST=folder: serve a build made beforehand (npm test makes it beside the unit tests, scripts/test.mjs) instead of
// building here
const prebuilt = process.env.PW_DIST;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 120_000,
  // PW_WORKERS: how many spec files run at once (default 2, the machine's two cores; README "Running the tests" has
  // the one-against-two figures measured so far); PW_WORKERS=1 runs them one at a time
  workers: Number(process.env.PW_WORKERS ?? 2),
  // ASSERTION_COUNT_DIR=dir: also write how many expect(…) calls each test ran (tests/assertion-count/)
  reporter: process.env.ASSERTION_COUNT_DIR ? [['list'], ['./tests/assertion-count/playwright-reporter.ts']] : [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    // the built site registers a service worker (src/shell/sw-register.ts): blocked here, so a spec's routes see
    // every request and no test reloads for cross-origin isolation; tests/e2e/hosted.spec.ts allows it
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--enable-unsafe-webgpu',
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: prebuilt
      ? `npx vite preview --outDir ${prebuilt} --host 127.0.0.1 --port ${port} --strictPort`
      : `npx vite build --outDir ${outDir} --emptyOutDir && npx vite preview --outDir ${outDir} --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
  },
});
