/** better-auth's error codes in words a user can act on. */
const messages: Record<string, string> = {
  USER_ALREADY_EXISTS: 'An account with this e-mail already exists. Sign in instead, or use another e-mail.',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL:
    'An account with this e-mail already exists. Sign in instead, or use another e-mail.',
  PASSWORD_TOO_SHORT: 'The password is too weak: use at least 8 characters.',
  PASSWORD_TOO_LONG: 'The password is too long: use at most 128 characters.',
  INVALID_EMAIL_OR_PASSWORD: 'Wrong e-mail or password.',
  INVALID_EMAIL: 'That does not look like an e-mail address.',
  INVALID_PASSWORD: 'Wrong e-mail or password.',
  // Refused by the cross-site check: the page was opened at an address the server does not know.
  INVALID_ORIGIN:
    "This server does not accept sign-ins from this page's address. Open Blockbot at its configured address (BLOCKBOT_BASE_URL), or set BLOCKBOT_BASE_URL to the address you use and restart it.",
};

export function authErrorMessage(
  error: { code?: string; message?: string; status?: number } | null | undefined,
): string {
  if (!error) return 'Something went wrong. Try again.';
  if (error.code && messages[error.code]) return messages[error.code];
  if (error.status === 429) return 'Too many attempts. Wait a minute and try again.';
  return error.message || 'Something went wrong. Try again.';
}
