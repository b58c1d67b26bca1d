import { expect, it } from 'vitest';
import { phoneDigits, reachableNumber } from './phone-numbers';

it("writes phone numbers in E.164 without the plus, with or without a messenger's suffix", () => {
  for (const written of [
    '+7 (900) 123-45-67',
    '79001234567@c.us',
    '79001234567@s.whatsapp.net',
    '79001234567',
    '0079001234567',
    '00 7 900 123 45 67',
  ])
    expect(phoneDigits(written)).toBe('79001234567');
  // The national prefix some write in brackets after the country code is not part of the number.
  expect(phoneDigits('+44 (0)20 7946 0958')).toBe('442079460958');
  expect(phoneDigits('+1 (415) 555-2671')).toBe('14155552671');
  expect(phoneDigits('no number')).toBe('');
});

it('keeps the digits of what cannot be a number of any country (a test id, a short code)', () => {
  expect(phoneDigits('4242')).toBe('4242');
  expect(phoneDigits('+999 123')).toBe('999123');
});

it('tells a number a messenger can reach (with its country code) from a national or partial one', () => {
  expect(reachableNumber('+1 (415) 555-2671')).toBe('14155552671');
  expect(reachableNumber('0033 6 12 34 56 78')).toBe('33612345678');
  expect(reachableNumber('8 (900) 123-45-67')).toBeNull();
  expect(reachableNumber('4242')).toBeNull();
});
