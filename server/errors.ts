/**
 * Errors the domain modules raise on purpose. Each carries a machine code and a message that
 * says what is wrong and how to fix it; tRPC and the public API map the code to a status.
 */
export type DomainErrorCode = 'invalid' | 'not_found' | 'forbidden' | 'conflict' | 'limit' | 'plan';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly field?: string,
    /** The public API's error code for it, where the code's own (`not_found`) says too little. */
    readonly apiCode?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
export const invalid = (message: string, field?: string) => new DomainError('invalid', message, field);

/** Validates a domain function's input; a bad one becomes an `invalid` error naming each field. */
export function parseInput<S extends import('zod').ZodType>(
  schema: S,
  input: unknown,
): import('zod').infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) =>
    i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message,
  );
  throw new DomainError('invalid', lines.join('\n'), result.error.issues[0]?.path.join('.'));
}
