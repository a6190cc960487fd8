#!/usr/bin/env node
// First step of `npm start` and `npm test` on a fresh machine: install npm packages when they are missing or
// older than package-lock.json, then prepare the built-in data. Uses only Node built-ins (it runs before
// node_modules exists). Idempotent: says what it does, does nothing twice.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lock = join(root, 'package-lock.json');
const marker = join(root, 'node_modules', '.package-lock.json');

function run(cmd, env = process.env) {
  console.log(`[setup] ${cmd}`);
  execSync(cmd, { cwd: root, stdio: 'inherit', env });
}

// onnxruntime-node's postinstall downloads CUDA binaries (its CPU binaries are bundled), which fails offline. npm 11
// runs no dependency's install script unless package.json's allowScripts allows it (it denies this one); npm 10
// runs them all, and the script skips itself when ONNXRUNTIME_NODE_INSTALL=skip (script/install-utils.js). An
// .npmrc key would do the same, but npm warns about unknown keys on every command, npx included.
const installEnv = { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' };

const needInstall = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
if (needInstall) {
  run(existsSync(lock) ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund', installEnv);
} else {
  console.log('[setup] npm packages are installed');
}
run('node scripts/prepare-data.mjs');
