#!/usr/bin/env node
// Copies Scalar's prebuilt browser bundle (the API reference at /docs/api) into public/, where the
// page loads it as a plain script. Bundling Scalar's sources through Next.js instead took about
// a third of the build's CPU time (and put a server copy of it into the production server), for
// a page that only ever renders in the browser. next.config.mjs runs it before every `next
// build` and `next dev`; `node scripts/copy-api-reference.mjs` runs it alone.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const API_REFERENCE_OUTFILE = path.join(root, 'public', 'api-reference.js');

export function copyApiReference() {
  // The package exports no path to it: it sits beside the package's main module.
  const main = createRequire(import.meta.url).resolve('@scalar/api-reference');
  const source = path.join(path.dirname(main), 'browser', 'standalone.js');
  fs.mkdirSync(path.dirname(API_REFERENCE_OUTFILE), { recursive: true });
  fs.copyFileSync(source, API_REFERENCE_OUTFILE);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) copyApiReference();
