export { createLogger, LOG_FORMATS, LOG_LEVELS, rootLogger, setRootLogger } from './create-logger.mjs';
export { type AreaLogger, logFor } from './logger';
export {
  type LogContext,
  logContext,
  outsideLogContext,
  requestIdFrom,
  withLogContext,
} from './request-context.mjs';
