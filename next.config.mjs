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

export default nextConfig;
