import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname) };
const shared = {
  environment: 'node' as const,
  testTimeout: 30_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
};

/**
 * Server tests that open no database: they run once, with the pure code, instead of once per
 * database mode. A file that opens a database belongs in the `db` project, which is also where a
 * file left out of this list runs.
 */
const serverTestsWithoutDatabase = [
  'server/*-literals.test.ts',
  'server/area-imports.test.ts',
  'server/config/*.test.ts',
  'server/docs/*.test.ts',
  'server/log/logger.test.ts',
  'server/ai/provider.test.ts',
  'server/ai/draft-stream.test.ts',
  'server/channels/*/testing/*.test.ts',
  'server/channels/channel-routes.test.ts',
  'server/channels/modules.test.ts',
  'server/channels/refusal.test.ts',
  'server/channels/webhook-address.test.ts',
  'server/channels/chatapp/send-spacing.test.ts',
  'server/channels/tg/bot-api.test.ts',
  'server/channels/tg/commands.test.ts',
  'server/channels/tg/webhook-address.test.ts',
  'server/db/group-write.test.ts',
  'server/db/sql-boundary.test.ts',
  'server/engine/compiled-bot.test.ts',
  'server/engine/engine-shape.test.ts',
  'server/engine/routing.test.ts',
  'server/engine/system-variables.test.ts',
  'server/public-api/openapi.test.ts',
  'server/public-api/production-entry.test.ts',
];

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
            ...serverTestsWithoutDatabase,
          ],
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: 'db',
          // Its files share a process per worker too (a fresh one cost each file 2 to 4 s of CPU):
          // the setup undoes what each file leaves behind (jobs, database, environment, state).
          isolate: false,
          // The engine gets the channels from the runtime at start; tests from this setup.
          setupFiles: ['server/testing/db-file-setup.ts'],
          include: ['server/**/*.test.ts', 'cli/**/*.test.ts', 'app/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['server/http/**', ...serverTestsWithoutDatabase],
        },
      },
    ],
  },
});
