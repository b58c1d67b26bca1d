import { expect, it } from 'vitest';
import { phoneDigits } from './phone-numbers';

it("compares phone numbers by their digits, with or without a messenger's suffix", () => {
  for (const written of [
    '+7 (900) 123-45-67',
    '79001234567@c.us',
    '79001234567@s.whatsapp.net',
    '79001234567',
  ])
    expect(phoneDigits(written)).toBe('79001234567');
  expect(phoneDigits('no number')).toBe('');
});
