import { randomBytes, scryptSync } from 'node:crypto';
import type { ArchiveKey } from '@/lib/transfer/archive-format';
import { openSecret, SecretBoxError, sealSecret } from '@/server/config/secret-box';
import { TransferError } from './transfer-error';

/**
 * The key an archive's secrets are sealed with: scrypt of a passphrase the user gives (`--key`
 * or BLOCKBOT_EXPORT_KEY), never the instance's own key, so the archive opens on another
 * instance and nowhere without the passphrase. Each value is sealed with secret-box's
 * AES-256-GCM, bound to what it is (`secret:<name>`), so a value moved to another record fails.
 */

export const MIN_PASSPHRASE_LENGTH = 12;
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const CHECK = 'blockbot-archive-key';
const scryptKey = (passphrase: string, salt: Buffer, params: { N: number; r: number; p: number }) =>
  scryptSync(passphrase, salt, 32, { ...params, maxmem: 256 * params.N * params.r });

export function newArchiveKey(passphrase: string): { header: ArchiveKey; key: Buffer } {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH)
    throw new TransferError(
      `the archive key must have at least ${MIN_PASSPHRASE_LENGTH} characters (a long passphrase, or \`openssl rand -hex 32\`)`,
    );
  const salt = randomBytes(16);
  const key = scryptKey(passphrase, salt, PARAMS);
  return {
    key,
    header: {
      kdf: 'scrypt',
      salt: salt.toString('base64'),
      ...PARAMS,
      check: sealSecret(CHECK, key, 'check'),
    },
  };
}

/** The archive's key from the passphrase; a wrong passphrase is refused here, before any import. */
export function openArchiveKey(header: ArchiveKey, passphrase: string): Buffer {
  if (header.N > 2 ** 20 || header.r > 32 || header.p > 16)
    throw new TransferError('the archive asks for scrypt parameters beyond what this instance accepts');
  const key = scryptKey(passphrase, Buffer.from(header.salt, 'base64'), header);
  try {
    if (openSecret(header.check, key, 'check') === CHECK) return key;
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
  }
  throw new TransferError("the archive key is wrong: it does not open this archive's secrets");
}

export const sealForArchive = (key: Buffer, what: string, plain: string) => sealSecret(plain, key, what);

export function openFromArchive(key: Buffer, what: string, sealed: string): string {
  try {
    return openSecret(sealed, key, what);
  } catch (error) {
    if (error instanceof SecretBoxError)
      throw new TransferError(`the archive's ${what} is damaged: it does not open`);
    throw error;
  }
}
