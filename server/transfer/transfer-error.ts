import { DomainError } from '@/server/errors';

/** An archive that cannot be written or read as asked: the message says what and how to fix it. */
export class TransferError extends DomainError {
  constructor(message: string) {
    super('invalid', message);
  }
}
