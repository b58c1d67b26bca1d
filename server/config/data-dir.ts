import path from 'node:path';
import { getEnv } from './env';

/** The embedded mode's data directory: PGlite's files and the generated secrets. */
export function dataDir(): string {
  const configured = getEnv().BLOCKBOT_DATA_DIR;
  // Built from cwd with path.join so Turbopack does not trace the whole project (a computed path makes it include every file under the root).
  return configured ? path.resolve(/*turbopackIgnore: true*/ configured) : path.join(process.cwd(), 'data');
}
