/**
 * The seconds a `Retry-After` header asks to wait (RFC 9110 §10.2.3): delay-seconds, or an
 * HTTP date (IMF-fixdate, or the obsolete forms Date.parse reads); a date past is 0. Undefined
 * for a missing or unreadable value: the caller's own backoff then.
 */
export function retryAfterSeconds(value: string | undefined, now: Date): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  // A date starts with a day's name; a bare number with a sign or a fraction is no valid value.
  if (!/^[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
