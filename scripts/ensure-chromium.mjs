#!/usr/bin/env node
// Browser tests drive Debian's Chromium (/usr/bin/chromium), never a downloaded browser build.
// Installs it with apt-get when it is missing and we are root; otherwise says exactly what to install.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = '/usr/bin/chromium';
if (existsSync(chromium)) {
  console.log(`[chromium] using ${chromium}`);
  process.exit(0);
}
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    `[chromium] ${chromium} is missing. Install Debian's Chromium as root, then run the tests again:\n` +
      '    sudo apt-get update && sudo apt-get install -y chromium',
  );
  process.exit(1);
}
console.log('[chromium] installing Debian package chromium (apt-get update && apt-get install -y chromium)');
execSync('apt-get update', { stdio: 'inherit' });
execSync('DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-dejavu-core', {
  stdio: 'inherit',
});
if (!existsSync(chromium)) {
  console.error(`[chromium] apt-get finished but ${chromium} is still missing.`);
  process.exit(1);
}
