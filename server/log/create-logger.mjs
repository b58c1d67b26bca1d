// The one logger of a process (pino): JSON lines on stdout, or pino-pretty's lines when stdout
// is a terminal. Plain JavaScript so the production server (scripts/start.mjs) logs through the
// very instance the app uses: it lives on globalThis, shared by every copy of this module.
import { isatty } from 'node:tty';
import pino from 'pino';
import pretty from 'pino-pretty';
import { logContext } from './request-context.mjs';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];
export const LOG_FORMATS = ['json', 'pretty'];

/**
 * A safety net only: code never hands the logger a secret or a message's text. Fields by these
 * names are replaced wherever they sit (at the top, or one object down).
 */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'token',
  'botToken',
  'apiKey',
  'api_key',
  'password',
  'secret',
  'signingSecret',
  'text',
  'body',
];
const REDACT_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
  'headers.authorization',
  '*.headers.authorization',
  'headers.cookie',
  '*.headers.cookie',
];

/**
 * An error as logged (`log.error({ err }, …)`): pino's type, message and stack, but of the
 * database client's errors only the type, code and call frames: their messages quote the
 * query's values, which can be a message's text.
 */
function errorFacts(error) {
  const facts = pino.stdSerializers.err(error);
  if (!String(facts?.type).startsWith('PrismaClient')) return facts;
  const frames = String(facts.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line));
  return { type: facts.type, code: facts.code, stack: frames.join('\n') };
}

/** The variable's value when it is one of `allowed` (the app's zod check reports a wrong one at start). */
function known(value, allowed, fallback) {
  const trimmed = value?.trim();
  return allowed.includes(trimmed) ? trimmed : fallback;
}

/**
 * A logger configured by BLOCKBOT_LOG_LEVEL and BLOCKBOT_LOG_FORMAT, writing to a file
 * descriptor (pretty when that is a terminal, unless the format says json) or to a stream
 * (always JSON; tests capture the output this way).
 */
export function createLogger({ env = process.env, destination = 1 } = {}) {
  const level = known(env.BLOCKBOT_LOG_LEVEL, LOG_LEVELS, 'info');
  const format = known(env.BLOCKBOT_LOG_FORMAT, LOG_FORMATS, undefined);
  const toFd = typeof destination === 'number';
  const usePretty = toFd && (format === 'pretty' || (format === undefined && isatty(destination)));
  const stream = !toFd
    ? destination
    : usePretty
      ? pretty({
          destination,
          sync: true,
          colorize: isatty(destination),
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname,area',
          messageFormat: '{if area}[{area}] {end}{msg}',
          hideObject: false,
        })
      : // Synchronous: a line is out before the process exits (a fatal start-up error).
        pino.destination({ dest: destination, sync: true });
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      // Levels by name: readable in Loki or Kibana without a mapping of pino's numbers.
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => logContext() ?? {},
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: errorFacts },
    },
    stream,
  );
}

const ROOT = Symbol.for('blockbot.log');

/** This process's logger, made on first use. */
export function rootLogger() {
  globalThis[ROOT] ??= createLogger();
  return globalThis[ROOT];
}

/** Replaces this process's logger (the CLI's goes to stderr; tests capture theirs). */
export function setRootLogger(logger) {
  globalThis[ROOT] = logger;
}
