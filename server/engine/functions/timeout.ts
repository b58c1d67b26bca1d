import type { Value } from '@/lib/formula';
import { parseLocalDateTime } from '@/server/engine/system-variables';
import { given } from './values';

const MAX_DELAY_SECONDS = 3600;

/**
 * The `timeout` of message() and platform_message(): seconds up to 3600 delay the send, more
 * than 3600 means one hour, a negative number sends now, `dd.mm.yyyy hh:mm` schedules it (a
 * past date sends now). Null means now.
 */
export function sendTime(timeout: Value | undefined, now: Date, timeZone: string): Date | null {
  if (!given(timeout)) return null;
  const text = String(timeout).trim();
  const seconds = Number(text);
  if (text !== '' && Number.isFinite(seconds)) {
    if (seconds <= 0) return null;
    return new Date(now.getTime() + Math.min(seconds, MAX_DELAY_SECONDS) * 1000);
  }
  const at = parseLocalDateTime(text, timeZone);
  if (!at) throw new Error(`timeout must be a number of seconds or a date "dd.mm.yyyy hh:mm", got "${text}"`);
  return at.getTime() <= now.getTime() ? null : at;
}
