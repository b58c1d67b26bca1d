import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EnvError, resetEnvCache } from './env';
import {
  decryptSecret,
  encryptSecret,
  getEncryptionKey,
  openSecret,
  SecretBoxError,
  sealSecret,
} from './secret-box';

const token = '7012345678:AAH-fake_token_value-0123456789abcdef';
const saved = { ...process.env };

function useEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}

afterEach(() => {
  for (const k of ['BLOCKBOT_ENCRYPTION_KEY', 'BLOCKBOT_DATA_DIR', 'DATABASE_URL']) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnvCache();
});

describe('sealing secrets', () => {
  const key = randomBytes(32);

  it('round-trips, with a fresh IV each time and no plain text in the sealed form', () => {
    const a = sealSecret(token, key);
    const b = sealSecret(token, key);
    expect(a).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('AAH');
    expect(openSecret(a, key)).toBe(token);
    expect(openSecret(sealSecret('', key), key)).toBe('');
  });

  it('detects tampering with the ciphertext, the tag or the IV', () => {
    const sealed = sealSecret(token, key);
    const [v, iv, tag, ct] = sealed.split(':');
    const flip = (s: string) => {
      const bytes = Buffer.from(s, 'base64url');
      bytes[0] ^= 1;
      return bytes.toString('base64url');
    };
    for (const changed of [
      [v, iv, tag, flip(ct)],
      [v, iv, flip(tag), ct],
      [v, flip(iv), tag, ct],
    ])
      expect(() => openSecret(changed.join(':'), key)).toThrow(SecretBoxError);
    expect(() => openSecret(`v2:${iv}:${tag}:${ct}`, key)).toThrow(/format v1/);
    expect(() => openSecret('plain-token', key)).toThrow(SecretBoxError);
  });

  it('refuses a wrong key and a different context', () => {
    const sealed = sealSecret(token, key, 'channel:1');
    expect(() => openSecret(sealed, randomBytes(32), 'channel:1')).toThrow(/does not open with this key/);
    expect(() => openSecret(sealed, key, 'channel:2')).toThrow(SecretBoxError);
    expect(openSecret(sealed, key, 'channel:1')).toBe(token);
  });
});

describe('the encryption key', () => {
  it('is generated once into the data directory in embedded mode and kept', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-secret-box-'));
    useEnv({ BLOCKBOT_DATA_DIR: dir, BLOCKBOT_ENCRYPTION_KEY: undefined, DATABASE_URL: undefined });
    const sealed = encryptSecret(token, 'channel:7');
    const file = path.join(dir, 'encryption-key');
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(getEncryptionKey().toString('hex')).toBe(fs.readFileSync(file, 'utf8'));
    expect(decryptSecret(sealed, 'channel:7')).toBe(token);
  });

  it('comes from BLOCKBOT_ENCRYPTION_KEY in hex or base64', () => {
    const key = randomBytes(32);
    useEnv({ BLOCKBOT_ENCRYPTION_KEY: key.toString('hex') });
    const sealed = encryptSecret(token);
    useEnv({ BLOCKBOT_ENCRYPTION_KEY: key.toString('base64') });
    expect(decryptSecret(sealed)).toBe(token);
    useEnv({ BLOCKBOT_ENCRYPTION_KEY: key.toString('base64url') });
    expect(decryptSecret(sealed)).toBe(token);
  });

  it('is required in server mode, with an error naming the variable; a malformed one is refused', () => {
    useEnv({ DATABASE_URL: 'postgresql://db.example/blockbot', BLOCKBOT_ENCRYPTION_KEY: undefined });
    expect(() => getEncryptionKey()).toThrow(EnvError);
    expect(() => getEncryptionKey()).toThrow(/BLOCKBOT_ENCRYPTION_KEY is not set/);
    useEnv({ BLOCKBOT_ENCRYPTION_KEY: 'too-short' });
    expect(() => getEncryptionKey()).toThrow(/BLOCKBOT_ENCRYPTION_KEY must be 32 bytes/);
    useEnv({ BLOCKBOT_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
    expect(getEncryptionKey()).toHaveLength(32);
  });
});
