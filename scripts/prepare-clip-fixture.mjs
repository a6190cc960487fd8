#!/usr/bin/env node
// Self-hosts the tiny CLIP-architecture test model: copies tests/fixtures/clip-tiny/ (made by
// scripts/make-clip-fixture.mjs, no network) to public/models/cil-lab/clip-tiny/, where the app loads it with
// the weight source "self-hosted folder" and the model id `cil-lab/clip-tiny` (the e2e tests do exactly that).
//
// This is also how a person self-hosts real weights: put the model folder (config.json, tokenizer files,
// onnx/text_model_quantized.onnx and/or onnx/text_model.onnx) under public/models/<org>/<name>/, e.g.
// public/models/Xenova/clip-vit-base-patch32/, then choose "Self-hosted folder" (/models/) and that model id.
//
// Node built-ins only. Idempotent: copies a file only when missing or different in size or older than its
// source; `--force` copies everything. When the fixture is missing it runs scripts/make-clip-fixture.mjs
// once (if present). Prints one line saying what it did.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'tests', 'fixtures', 'clip-tiny');
const out = join(root, 'public', 'models', 'cil-lab', 'clip-tiny');
const maker = join(root, 'scripts', 'make-clip-fixture.mjs');
const force = process.argv.includes('--force');

if (!existsSync(join(src, 'config.json')) && existsSync(maker)) {
  execFileSync(process.execPath, [maker], { cwd: root, stdio: 'inherit' });
}
if (!existsSync(join(src, 'config.json'))) {
  console.log(`[prepare-clip-fixture] skipped: ${relative(root, src)}/ does not exist yet (scripts/make-clip-fixture.mjs makes it)`);
  process.exit(0);
}

/** Every file under dir, as paths relative to dir. */
function walk(dir, prefix = '') {
  const acc = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) acc.push(...walk(join(dir, e.name), rel));
    else if (e.isFile()) acc.push(rel);
  }
  return acc;
}

let copied = 0;
let bytes = 0;
const files = walk(src);
for (const f of files) {
  const from = join(src, f);
  const to = join(out, f);
  const a = statSync(from);
  bytes += a.size;
  if (!force && existsSync(to)) {
    const b = statSync(to);
    if (b.size === a.size && b.mtimeMs >= a.mtimeMs) continue;
  }
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  copied++;
}
const kb = Math.round(bytes / 1024);
console.log(
  copied
    ? `[prepare-clip-fixture] copied ${copied} of ${files.length} files (${kb} KB) of the tiny CLIP fixture to ${relative(root, out)}/`
    : `[prepare-clip-fixture] ${relative(root, out)}/ is up to date (${files.length} files, ${kb} KB)`,
);
