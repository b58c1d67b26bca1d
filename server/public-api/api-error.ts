import { DomainError, type DomainErrorCode } from '@/server/errors';

/** bot-semantics §6: every error answer is `{status: "error", error, message}` with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const domainStatus: Record<DomainErrorCode, [number, string]> = {
  invalid: [400, 'invalid_parameter'],
  limit: [400, 'limit_exceeded'],
  not_found: [404, 'not_found'],
  forbidden: [403, 'forbidden'],
  plan: [403, 'plan_required'],
  conflict: [409, 'conflict'],
};

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) {
    const [status, code] = domainStatus[error.code];
    return new ApiError(status, error.apiCode ?? code, error.message);
  }
  return new ApiError(
    500,
    'internal_error',
    'Something went wrong on our side. Try again; if it keeps failing, contact the service administrator.',
  );
}

export const SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** An answer of the public API, independent of the HTTP server that sends it. */
export interface ApiReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): ApiReply {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...SECURITY_HEADERS, ...headers },
    body: JSON.stringify(body),
  };
}

export function errorReply(error: ApiError): ApiReply {
  return jsonReply(
    error.status,
    { status: 'error', error: error.code, message: error.message },
    error.headers,
  );
}
