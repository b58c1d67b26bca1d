import { createHmac, timingSafeEqual } from 'node:crypto';
import { getSecrets } from './secrets';

/**
 * Signatures for the app's own addresses of files (a tg client's file, a stored upload): an
 * HMAC of the app's secret, keyed per `purpose`, over the parts that name the thing. Whoever has
 * the address may open it; nobody can make one for another thing, or move one to another purpose.
 */
export function urlSignature(purpose: string, parts: readonly (string | number)[]): string {
  return createHmac('sha256', purposeKey(purpose)).update(parts.join('\n')).digest('base64url').slice(0, 32);
}

/** Each purpose's key, derived once per secret: a tg update signs its client's avatar address. */
const purposeKeys = new Map<string, { secret: string; key: Buffer }>();

function purposeKey(purpose: string): Buffer {
  const secret = getSecrets().authSecret;
  const known = purposeKeys.get(purpose);
  if (known?.secret === secret) return known.key;
  const key = createHmac('sha256', secret).update(purpose).digest();
  purposeKeys.set(purpose, { secret, key });
  return key;
}

/** Whether `given` is this app's signature of these parts, compared in constant time. */
export function isSignedUrl(purpose: string, parts: readonly (string | number)[], given: string): boolean {
  const expected = Buffer.from(urlSignature(purpose, parts));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
