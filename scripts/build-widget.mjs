#!/usr/bin/env node
// Builds the chat widget's browser script (widget/main.ts) into public/widget.js: one minified
// file with no imports, for any website's <script async>. next.config.mjs runs it before every
// `next build` and `next dev`; `node scripts/build-widget.mjs` runs it alone.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const WIDGET_OUTFILE = path.join(root, 'public', 'widget.js');

export function buildWidget() {
  buildSync({
    entryPoints: [path.join(root, 'widget/main.ts')],
    outfile: WIDGET_OUTFILE,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildWidget();
