import { hmac } from '@noble/hashes/hmac.js';
import { md5 as md5Hash } from '@noble/hashes/legacy.js';
import { sha256 as sha256Hash } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

// The formula's md5, sha256 and hmac_hexdigest, hex digests of UTF-8 text. @noble/hashes is
// audited and isomorphic, so the builder's browser and the server compute the same digests.

export const md5 = (text: string) => bytesToHex(md5Hash(utf8ToBytes(text)));
export const sha256 = (text: string) => bytesToHex(sha256Hash(utf8ToBytes(text)));

/** HMAC (RFC 2104) with SHA-256 or MD5, hex digest. */
export function hmacHex(key: string, message: string, algorithm: 'sha256' | 'md5' = 'sha256'): string {
  return bytesToHex(hmac(algorithm === 'md5' ? md5Hash : sha256Hash, utf8ToBytes(key), utf8ToBytes(message)));
}
