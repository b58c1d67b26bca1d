import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * jambonz's webhook signature (docs.jambonz.org, "Securing HTTP endpoints"): the
 * `Jambonz-Signature` header is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`
 * keyed with the account's webhook secret. A signature older or newer than the tolerance is
 * refused, so a recorded request cannot be replayed later.
 */

export const SIGNATURE_HEADER = 'jambonz-signature';
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signBody(
  body: string | Uint8Array,
  secret: string,
  at = Math.floor(Date.now() / 1000),
): string {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const v1 = createHmac('sha256', secret).update(`${at}.${text}`).digest('hex');
  return `t=${at},v1=${v1}`;
}

export function validSignature(
  body: Uint8Array,
  header: string | null,
  secret: string,
  now = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const parts = new Map<string, string[]>();
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    parts.set(key, [...(parts.get(key) ?? []), part.slice(at + 1).trim()]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t) || Math.abs(now - t) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(
    createHmac('sha256', secret)
      .update(Buffer.concat([Buffer.from(`${t}.`), Buffer.from(body)]))
      .digest('hex'),
  );
  return (parts.get('v1') ?? []).some((v) => {
    const given = Buffer.from(v);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
