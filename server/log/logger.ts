import type { LogFn, Logger } from 'pino';
import { rootLogger } from './create-logger.mjs';

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** An area's logger: its lines carry `area`. Never hand it a secret or a message's text. */
export type AreaLogger = Record<Level, LogFn> & { isLevelEnabled(level: Level): boolean };

const children = new WeakMap<Logger, Map<string, Logger>>();

function childOf(area: string): Logger {
  const root = rootLogger();
  let byArea = children.get(root);
  if (!byArea) {
    byArea = new Map();
    children.set(root, byArea);
  }
  let child = byArea.get(area);
  if (!child) {
    child = root.child({ area });
    byArea.set(area, child);
  }
  return child;
}

/**
 * The logger of one area of the server (`logFor('jobs')`), made at import and resolved at each
 * line, so a logger set later (the CLI's on stderr, a test's captured one) is the one written to.
 */
export function logFor(area: string): AreaLogger {
  const at =
    (level: Level): LogFn =>
    (...args: Parameters<LogFn>) => {
      const child = childOf(area);
      (child[level] as (...a: unknown[]) => void).apply(child, args);
    };
  return {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    isLevelEnabled: (level) => childOf(area).isLevelEnabled(level),
  };
}
