#!/usr/bin/env node
// `npx cil-lab …`: runs the TypeScript CLI (src/cli/main.ts) through tsx, without a build step.
import { register } from 'tsx/esm/api';
register();
const { main, endQuietlyOnBrokenPipe } = await import('../src/cli/main.ts');
endQuietlyOnBrokenPipe();
process.exitCode = await main(process.argv.slice(2));
