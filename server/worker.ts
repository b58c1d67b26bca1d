import { getEnv } from './config/env';
import { logFor } from './log';
import { startRuntime } from './runtime/runtime';

const log = logFor('worker');

/** `npm run worker`: a job worker process of its own, for server mode (DATABASE_URL set). */
if (!getEnv().DATABASE_URL) {
  // PGlite's data directory may only ever be open in one process: the web server's.
  log.fatal(
    'Blockbot worker: `npm run worker` is for server mode (set DATABASE_URL); in embedded mode the web server runs the jobs itself.',
  );
  process.exit(1);
}
await startRuntime({ worker: true, role: 'worker' });
