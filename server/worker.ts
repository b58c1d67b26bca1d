import { getEnv } from './config/env';
import { serveWorkerEndpoints } from './health/worker-server';
import { logFor } from './log';
import { startRuntime } from './runtime/runtime';

const log = logFor('worker');

/** `npm run worker`: a job worker process of its own, for server mode (DATABASE_URL set). */
const env = getEnv();
if (!env.DATABASE_URL) {
  // PGlite's data directory may only ever be open in one process: the web server's.
  log.fatal(
    'Blockbot worker: `npm run worker` is for server mode (set DATABASE_URL); in embedded mode the web server runs the jobs itself.',
  );
  process.exit(1);
}
await startRuntime({ worker: true, role: 'worker' });
await serveWorkerEndpoints(env.BLOCKBOT_WORKER_PORT).catch((error: Error) => {
  log.fatal(
    `Blockbot worker: cannot serve health and metrics on port ${env.BLOCKBOT_WORKER_PORT} (${error.message}).`,
  );
  process.exit(1);
});
log.info(`worker's health, readiness and metrics on port ${env.BLOCKBOT_WORKER_PORT}`);
