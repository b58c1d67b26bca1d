import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from 'next/constants.js';
import { buildWidget } from './scripts/build-widget.mjs';

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with WASM or native pieces load from node_modules instead of the bundle.
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pglite-prisma-adapter',
    'pg-boss',
    '@prisma/adapter-pg',
    'pg',
  ],
  poweredByHeader: false,
  // Its 308 from `/api/{key}/{action}/` would repeat the API key in Location; the route matches
  // either form anyway, and so do pages.
  skipTrailingSlashRedirect: true,
};

/** The chat widget's script is built into public/ first, so every build and dev server serves a fresh one. */
export default function config(phase) {
  if (phase === PHASE_PRODUCTION_BUILD || phase === PHASE_DEVELOPMENT_SERVER) buildWidget();
  return nextConfig;
}
