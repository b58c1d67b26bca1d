import type { Logger } from 'pino';
import { createLogger, rootLogger, setRootLogger } from '@/server/log';

export interface CapturedLog {
  /** Everything written, as written. */
  text(): string;
  /** Each line parsed (the output is JSON lines). */
  lines(): Record<string, unknown>[];
  /** Puts the process's previous logger back. */
  restore(): void;
}

/**
 * Makes this process's logger write its JSON lines into memory, configured like the app's by
 * `env` (BLOCKBOT_LOG_LEVEL; default info), so a test reads what the server logged.
 */
export function captureLog(env: Record<string, string | undefined> = {}): CapturedLog {
  const previous: Logger = rootLogger();
  let text = '';
  setRootLogger(
    createLogger({
      env,
      destination: {
        write(chunk: string) {
          text += chunk;
        },
      },
    }),
  );
  return {
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    restore: () => setRootLogger(previous),
  };
}
