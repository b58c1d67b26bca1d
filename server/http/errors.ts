export type SafeHttpErrorCode =
  | 'bad_url'
  | 'bad_header'
  | 'blocked_address'
  | 'dns'
  | 'timeout'
  | 'cancelled'
  | 'too_large'
  | 'proxy_not_configured'
  | 'bad_proxy'
  | 'network'
  | 'redirect';

/** Why an outgoing request was refused or failed, in words a bot designer can act on. */
export class SafeHttpError extends Error {
  constructor(
    readonly code: SafeHttpErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SafeHttpError';
  }
}
