#!/usr/bin/env node
// A tiny static server for a built site under a sub-path (docs/deploy.md; tests/e2e/hosted.spec.ts),
// node:http only:
//   node scripts/serve-static.mjs --dir dist --base /lab/sub/ --port 4350 [--no-headers]
// - serves <dir> at <base> only; any request outside <base> is answered 404 and logged as "OUTSIDE <method> <url>";
// - adds the response headers of <dir>/_headers (the build's copy of public/_headers: CSP, COOP/COEP, cache
//   headers), paths in it read relative to <base>; --no-headers leaves them out (a host such as GitHub Pages, where
//   only the service-worker fallback makes the page cross-origin isolated);
// - logs "GET <url> <status>" for every request when --verbose.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
  '.u8': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The rules of a Netlify/Cloudflare-style _headers file: a line with a path pattern (`/*`, `/assets/*`,
 * `/index.html`), then indented `Name: value` lines. Comments (#) and blank lines are skipped.
 * @returns {{ pattern: string, headers: [string, string][] }[]}
 */
export function parseHeadersFile(text) {
  const rules = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (/^\s/.test(line)) {
      const m = /^\s+([^:]+):\s*(.*)$/.exec(line);
      if (m && rules.length) rules[rules.length - 1].headers.push([m[1].trim(), m[2].trim()]);
    } else rules.push({ pattern: line.trim(), headers: [] });
  }
  return rules;
}

/** Does a _headers pattern (`*` matches anything, including '/') match a path relative to the site root? */
export function patternMatches(pattern, path) {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(path);
}

/** The headers for `path` (relative to the site root, starting with '/'): every matching rule, in file order. */
export function headersFor(rules, path) {
  const out = new Map();
  for (const r of rules) if (patternMatches(r.pattern, path)) for (const [k, v] of r.headers) out.set(k, v);
  return out;
}

function args(argv) {
  const a = { dir: 'dist', base: '/', port: 4350, host: '127.0.0.1', headers: true, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--dir') a.dir = argv[++i];
    else if (k === '--base') a.base = argv[++i];
    else if (k === '--port') a.port = Number(argv[++i]);
    else if (k === '--host') a.host = argv[++i];
    else if (k === '--no-headers') a.headers = false;
    else if (k === '--verbose') a.verbose = true;
    else throw new Error(`serve-static: unknown argument ${k}`);
  }
  if (!a.base.startsWith('/') || !a.base.endsWith('/')) throw new Error('serve-static: --base must start and end with "/"');
  return a;
}

export function serve({ dir, base, port, host = '127.0.0.1', headers = true, verbose = false }) {
  const root = resolve(dir);
  const headersFile = join(root, '_headers');
  const rules = headers && existsSync(headersFile) ? parseHeadersFile(readFileSync(headersFile, 'utf8')) : [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    const done = (status) => {
      if (verbose) console.log(`${req.method} ${req.url} ${status}`);
    };
    if (!path.startsWith(base)) {
      console.log(`OUTSIDE ${req.method} ${req.url}`);
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('outside the site');
      return done(404);
    }
    let rel = path.slice(base.length);
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = normalize(join(root, rel));
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return done(404);
    }
    const head = { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': statSync(file).size };
    for (const [k, v] of headersFor(rules, `/${rel}`)) head[k] = v;
    if (rel === 'index.html') for (const [k, v] of headersFor(rules, '/')) head[k] = v;
    res.writeHead(200, head);
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
    done(200);
  });
  server.listen(port, host, () => console.log(`serving ${root} at http://${host}:${port}${base}${headers ? '' : ' (no headers)'}`));
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) serve(args(process.argv.slice(2)));
