import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from './data-dir';
import { EnvError, getEnv, isServerMode } from './env';

/**
 * Short secrets (messenger tokens) encrypted at rest with AES-256-GCM:
 * `v1:<iv>:<tag>:<ciphertext>`, each part base64url. The version lets a later key or algorithm
 * be told apart; the optional context (e.g. the channel's id) is authenticated too, so a sealed
 * value copied into another row does not open there.
 */

const VERSION = 'v1';

export class SecretBoxError extends Error {}

export function sealSecret(plain: string, key: Uint8Array, context = ''): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join(':');
}

export function openSecret(sealed: string, key: Uint8Array, context = ''): string {
  const parts = sealed.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION)
    throw new SecretBoxError(`not a sealed secret of format ${VERSION}:<iv>:<tag>:<ciphertext>`);
  const [iv, tag, ciphertext] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
  if (iv.length !== 12 || tag.length !== 16) throw new SecretBoxError('the sealed secret is damaged');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError(
      'the sealed secret does not open with this key: it was changed, or BLOCKBOT_ENCRYPTION_KEY (or the data directory) differs from the one it was sealed with',
    );
  }
}

/** 64 hex characters, or base64/base64url of 32 bytes. */
export function parseEncryptionKey(text: string): Buffer {
  const hex = /^[0-9a-f]{64}$/i.test(text);
  if (!hex && !/^[A-Za-z0-9+/_-]{43}=?$/.test(text))
    throw new EnvError(
      'BLOCKBOT_ENCRYPTION_KEY must be 32 bytes written as 64 hex characters (`openssl rand -hex 32`) or in base64.',
    );
  return Buffer.from(text, hex ? 'hex' : 'base64');
}

let cached: { source: string; key: Buffer } | undefined;

/**
 * The key of secrets at rest: BLOCKBOT_ENCRYPTION_KEY when set; in server mode it must be
 * (every instance reads the same tokens); in embedded mode it is generated once into the data
 * directory, beside the auth secret. Read when a channel first needs it, so an app with no
 * messenger channel needs no key.
 */
export function getEncryptionKey(): Buffer {
  const env = getEnv();
  const file = path.join(dataDir(), 'encryption-key');
  const source = env.BLOCKBOT_ENCRYPTION_KEY ? `env:${env.BLOCKBOT_ENCRYPTION_KEY}` : `file:${file}`;
  if (cached?.source === source) return cached.key;
  let key: Buffer;
  if (env.BLOCKBOT_ENCRYPTION_KEY) key = parseEncryptionKey(env.BLOCKBOT_ENCRYPTION_KEY);
  else if (isServerMode(env))
    throw new EnvError(
      'BLOCKBOT_ENCRYPTION_KEY is not set: in server mode (DATABASE_URL set) every instance needs the same key to read messenger tokens and project secrets; generate one with `openssl rand -hex 32`.',
    );
  else key = readOrCreateKey(file);
  cached = { source, key };
  return key;
}

function readOrCreateKey(file: string): Buffer {
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // 'wx' fails if another process wrote it first; then read theirs.
  try {
    fs.writeFileSync(file, key.toString('hex'), { flag: 'wx', mode: 0o600 });
    return key;
  } catch {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  }
}

export const encryptSecret = (plain: string, context = '') => sealSecret(plain, getEncryptionKey(), context);
export const decryptSecret = (sealed: string, context = '') =>
  openSecret(sealed, getEncryptionKey(), context);
