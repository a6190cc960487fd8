#!/usr/bin/env node
// Self-hosts the tiny test models: copies tests/fixtures/clip-tiny/ (CLIP text, made by scripts/make-clip-fixture.mjs)
// and tests/fixtures/clip-vision-tiny/, dinov2-tiny/ and vit-tiny/ (image encoders, made by scripts/make-clip-vision-fixture.mjs),
// no network, to public/models/cil-lab/<name>/, where the app loads them with the weight source "self-hosted folder"
// and the model id `cil-lab/<name>` (the e2e tests do exactly that).
//
// This is also how a person self-hosts real weights: put the model folder (config.json, tokenizer files,
// onnx/text_model_quantized.onnx and/or onnx/text_model.onnx) under public/models/<org>/<name>/, e.g.
// public/models/Xenova/clip-vit-base-patch32/, then choose "Self-hosted folder" (/models/) and that model id.
//
// Node built-ins only. Idempotent: copies a file only when missing or different in size or older than its
// source; `--force` copies everything. When a fixture is missing it runs its make script once (if present). Prints
// one line saying what it did.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');
const FIXTURES = [
  { name: 'clip-tiny', maker: 'make-clip-fixture.mjs' },
  { name: 'clip-vision-tiny', maker: 'make-clip-vision-fixture.mjs' },
  { name: 'dinov2-tiny', maker: 'make-clip-vision-fixture.mjs' },
  { name: 'vit-tiny', maker: 'make-clip-vision-fixture.mjs' },
];

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
let total = 0;
const done = [];
for (const { name, maker } of FIXTURES) {
  const src = join(root, 'tests', 'fixtures', name);
  const out = join(root, 'public', 'models', 'cil-lab', name);
  const script = join(root, 'scripts', maker);
  if (!existsSync(join(src, 'config.json')) && existsSync(script)) execFileSync(process.execPath, [script], { cwd: root, stdio: 'inherit' });
  if (!existsSync(join(src, 'config.json'))) {
    console.log(`[prepare-clip-fixture] skipped ${name}: ${relative(root, src)}/ does not exist yet (scripts/${maker} makes it)`);
    continue;
  }
  const files = walk(src);
  total += files.length;
  done.push(name);
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
}
const kb = Math.round(bytes / 1024);
const where = relative(root, join(root, 'public', 'models', 'cil-lab'));
console.log(
  copied
    ? `[prepare-clip-fixture] copied ${copied} of ${total} files (${kb} KB) of the tiny test models (${done.join(', ')}) to ${where}/`
    : `[prepare-clip-fixture] ${where}/ is up to date (${done.join(', ')}: ${total} files, ${kb} KB)`,
);
