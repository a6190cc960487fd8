#!/usr/bin/env node
// Runs many `cil-lab` command lines in one child process (the CLI's `main`, as bin/cil-lab.mjs runs it): reads a JSON
// array of argv arrays from the file given, and prints one JSON line per command line — {"i", "code", "out", "err"}
// — as soon as it ends. A command that aborts V8 (a native stack, exit 133/134) ends the process: the caller sees
// which command line was running from the lines printed before (tests/unit/cli/argv-batch.ts).
import { readFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../../../src/cli/main.ts');
const vectors = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const write = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
for (let i = 0; i < vectors.length; i++) {
  let out = '';
  let err = '';
  process.stdout.write = (s) => ((out += String(s)), true);
  process.stderr.write = (s) => ((err += String(s)), true);
  let code;
  try {
    code = await main(vectors[i]);
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
  write.out(`${JSON.stringify({ i, code, out: out.slice(0, 2000), err: err.slice(0, 2000) })}\n`);
}
