import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname) };
const shared = {
  environment: 'node' as const,
  testTimeout: 30_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
};

// Two projects: pure code, and code that needs a database. CI runs `--project db` a second
// time against PostgreSQL (TEST_DATABASE_URL), so both database modes are tested.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          ...shared,
          name: 'unit',
          // Pure code: its files share one process per worker, each loading the modules once.
          // A fresh process per file cost 0.6 s of CPU each, four times the tests' own time.
          isolate: false,
          include: [
            'lib/**/*.test.ts',
            'components/**/*.test.ts',
            'widget/**/*.test.ts',
            'server/http/**/*.test.ts',
          ],
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: 'db',
          // The engine gets the channels from the runtime at start; tests from this setup.
          setupFiles: ['server/testing/install-channels.ts'],
          include: ['server/**/*.test.ts', 'cli/**/*.test.ts', 'app/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['server/http/**'],
        },
      },
    ],
  },
});
