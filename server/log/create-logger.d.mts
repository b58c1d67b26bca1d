import type { DestinationStream, Logger } from 'pino';

export const LOG_LEVELS: readonly ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];
export const LOG_FORMATS: readonly ['json', 'pretty'];

export function createLogger(options?: {
  env?: Record<string, string | undefined>;
  destination?: number | DestinationStream;
}): Logger;
export function rootLogger(): Logger;
export function setRootLogger(logger: Logger): void;
