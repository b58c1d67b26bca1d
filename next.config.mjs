import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from 'next/constants.js';
import { buildWidget } from './scripts/build-widget.mjs';
import { copyApiReference } from './scripts/copy-api-reference.mjs';

/** @type {(phase: string) => import('next').NextConfig} */
const nextConfig = (phase) => ({
  // Server-only packages with WASM or native pieces load from node_modules instead of the bundle.
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pglite-prisma-adapter',
    'pg-boss',
    '@prisma/adapter-pg',
    'pg',
    // PDF.js (inside unpdf, the knowledge base's PDF reader) is several MB loaded on first use:
    // required from node_modules at run time rather than bundled into the routes that import it.
    'unpdf',
    // One metrics registry per process, whichever route bundles import it (server/metrics).
    'prom-client',
  ],
  poweredByHeader: false,
  // Its 308 from `/api/{key}/{action}/` would repeat the API key in Location; the route matches
  // either form anyway, and so do pages.
  skipTrailingSlashRedirect: true,
  // `npm test` type-checks everything (`next typegen`, then `tsc --noEmit` over the route types,
  // tests and scripts); the build's own pass repeated it and was about a third of the build's
  // time on `npm start`'s first run.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // Route modules load when a route is first asked for, not all at start: a page nobody opens
    // holds no memory (about 30 MiB of heap at rest for all of them).
    preloadEntriesOnStart: false,
    // The build's cache on disk only speeds up a later rebuild; writing it cost the first build
    // (a fresh clone's `npm start`) about 25 s and 290 MB.
    turbopackFileSystemCacheForBuild: false,
    // Source maps of the server's chunks (80 MB) in a production build: its server prints
    // stack traces in the built chunks anyway. `next dev` keeps them.
    turbopackSourceMaps: phase === PHASE_DEVELOPMENT_SERVER,
  },
});

/**
 * The chat widget's script is built, and Scalar's API reference bundle copied, into public/
 * first, so every build and dev server serves fresh ones.
 */
export default function config(phase) {
  if (phase === PHASE_PRODUCTION_BUILD || phase === PHASE_DEVELOPMENT_SERVER) {
    buildWidget();
    copyApiReference();
  }
  return nextConfig(phase);
}
