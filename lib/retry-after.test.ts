import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from './retry-after';

describe('retryAfterSeconds', () => {
  const now = new Date('2026-12-05T10:00:00.400Z');

  it('reads delay-seconds', () => {
    expect(retryAfterSeconds('20', now)).toBe(20);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date as the seconds until it, rounded up, and a date past as 0', () => {
    expect(retryAfterSeconds('Sat, 05 Dec 2026 10:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Saturday, 05-Dec-26 10:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Sat, 05 Dec 2026 09:59:00 GMT', now)).toBe(0);
  });

  it('gives nothing for a missing or unreadable value', () => {
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
    expect(retryAfterSeconds('', now)).toBeUndefined();
    expect(retryAfterSeconds('-5', now)).toBeUndefined();
    expect(retryAfterSeconds('1.5', now)).toBeUndefined();
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
  });
});
