import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from './data-dir';
import { EnvError, getEnv, isServerMode } from './env';

interface Secrets {
  authSecret: string;
}

let cached: Secrets | undefined;

/**
 * Secrets the app needs. Embedded mode generates them on first start and keeps them in the
 * data directory, so nothing must be configured; server mode takes them from the environment
 * (several instances must agree), and a missing one stops the start with one clear line.
 */
export function getSecrets(): Secrets {
  if (cached) return cached;
  const env = getEnv();
  if (env.BLOCKBOT_AUTH_SECRET) {
    cached = { authSecret: env.BLOCKBOT_AUTH_SECRET };
  } else if (isServerMode(env)) {
    throw new EnvError(
      'BLOCKBOT_AUTH_SECRET is not set: in server mode (DATABASE_URL set) every instance needs the same secret; generate one with `openssl rand -hex 32`.',
    );
  } else {
    cached = readOrCreate(path.join(dataDir(), 'secrets.json'));
  }
  return cached;
}

function readOrCreate(file: string): Secrets {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets: Secrets = { authSecret: randomBytes(32).toString('hex') };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // 'wx' fails if another process wrote it first; then read theirs.
  try {
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { flag: 'wx', mode: 0o600 });
    return secrets;
  } catch {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Secrets;
  }
}
