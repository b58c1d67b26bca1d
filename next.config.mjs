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
};

export default nextConfig;
