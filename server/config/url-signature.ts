import { createHmac, timingSafeEqual } from 'node:crypto';
import { getSecrets } from './secrets';

/**
 * Signatures for the app's own addresses of files (a tg client's file, a stored upload): an
 * HMAC of the app's secret, keyed per `purpose`, over the parts that name the thing. Whoever has
 * the address may open it; nobody can make one for another thing, or move one to another purpose.
 */
export function urlSignature(purpose: string, parts: readonly (string | number)[]): string {
  const key = createHmac('sha256', getSecrets().authSecret).update(purpose).digest();
  return createHmac('sha256', key).update(parts.join('\n')).digest('base64url').slice(0, 32);
}

/** Whether `given` is this app's signature of these parts, compared in constant time. */
export function isSignedUrl(purpose: string, parts: readonly (string | number)[], given: string): boolean {
  const expected = Buffer.from(urlSignature(purpose, parts));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
