/**
 * Who may create an account on an instance (docs/operations.md, "Who may sign up"): the rule
 * the auth hook enforces and the sign-up page shows before anyone types.
 */
export const SIGN_UP_MODES = ['open', 'invite-only', 'closed'] as const;
export type SignUpMode = (typeof SIGN_UP_MODES)[number];

/** Where the mode in force comes from: BLOCKBOT_SIGNUP wins, then the admin's choice. */
export type SignUpModeSource = 'env' | 'setting' | 'default';

export interface SignUpPolicy {
  mode: SignUpMode;
  source: SignUpModeSource;
}

/**
 * Open for a new embedded install (someone trying Blockbot on their machine); invite-only on a
 * server (DATABASE_URL), whose address others can reach: people join through a project's link.
 */
export const defaultSignUpMode = (serverMode: boolean): SignUpMode => (serverMode ? 'invite-only' : 'open');

export type SignUpVerdict = 'allowed' | 'closed' | 'invite-only';

/**
 * Whether this sign-up may create an account. The first account is always allowed (it becomes
 * the admin, who can then choose); invite-only lets in the address a valid invite link is for.
 */
export function signUpVerdict(input: {
  mode: SignUpMode;
  hasUsers: boolean;
  /** The request carries a valid, pending invite link for the address signing up. */
  invited: boolean;
}): SignUpVerdict {
  if (!input.hasUsers || input.mode === 'open') return 'allowed';
  if (input.mode === 'invite-only') return input.invited ? 'allowed' : 'invite-only';
  return 'closed';
}

export const SIGN_UP_REFUSALS: Record<Exclude<SignUpVerdict, 'allowed'>, string> = {
  closed: 'Sign-up is closed on this instance. Ask its administrator for an account.',
  'invite-only':
    'This instance takes new accounts by invitation only. Open the invite link you were sent, or ask a project owner to invite you.',
};

/** The codes the auth API answers a refused sign-up with (and a disabled account's sign-in). */
export const SIGN_UP_ERROR_CODES = {
  closed: 'SIGN_UP_CLOSED',
  'invite-only': 'SIGN_UP_INVITE_ONLY',
} as const satisfies Record<Exclude<SignUpVerdict, 'allowed'>, string>;

export const ACCOUNT_DISABLED_CODE = 'ACCOUNT_DISABLED';
export const ACCOUNT_DISABLED_MESSAGE =
  "This account has been disabled by the instance's administrator. Ask them to enable it again.";

/** The header an invite page's sign-up sends its link's token in. */
export const INVITE_TOKEN_HEADER = 'x-blockbot-invite';
