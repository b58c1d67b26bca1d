import { describe, expect, it } from 'vitest';
import { defaultSignUpMode, SIGN_UP_MODES, signUpVerdict } from './sign-up';

describe('signUpVerdict', () => {
  it('always lets the first account in, whatever the mode', () => {
    for (const mode of SIGN_UP_MODES)
      expect(signUpVerdict({ mode, hasUsers: false, invited: false })).toBe('allowed');
  });

  it('then follows the mode: open, invite-only with a link for the address, closed', () => {
    expect(signUpVerdict({ mode: 'open', hasUsers: true, invited: false })).toBe('allowed');
    expect(signUpVerdict({ mode: 'invite-only', hasUsers: true, invited: false })).toBe('invite-only');
    expect(signUpVerdict({ mode: 'invite-only', hasUsers: true, invited: true })).toBe('allowed');
    expect(signUpVerdict({ mode: 'closed', hasUsers: true, invited: true })).toBe('closed');
  });

  it('defaults to open on the embedded database and invite-only on a server', () => {
    expect(defaultSignUpMode(false)).toBe('open');
    expect(defaultSignUpMode(true)).toBe('invite-only');
  });
});
