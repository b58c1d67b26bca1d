/**
 * Phone numbers compare by their digits: `+7 (900) 123-45-67`, `79001234567@c.us` (a
 * messenger's suffix) and `79001234567` agree.
 */
export function phoneDigits(phone: string): string {
  return phone.replace(/@.*$/, '').replace(/\D/g, '');
}
