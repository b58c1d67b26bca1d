export interface LogContext {
  requestId?: string;
  jobId?: string;
}

export function requestIdFrom(header: string | string[] | undefined): string;
export function withLogContext<T>(context: LogContext, fn: () => T): T;
export function logContext(): LogContext | undefined;
export function outsideLogContext<T>(fn: () => T): T;
