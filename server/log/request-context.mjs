// What a log line is about (the HTTP request, the job), carried through everything that request
// or job runs. Plain JavaScript so the production server (scripts/request-listener.mjs) sets it
// where a request enters; the one store lives on globalThis, so Next.js's bundled copy of this
// module, tsx's and plain Node's all read the same one.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

const STORE = Symbol.for('blockbot.logContext');
globalThis[STORE] ??= new AsyncLocalStorage();
/** @type {AsyncLocalStorage<{ requestId?: string, jobId?: string }>} */
const storage = globalThis[STORE];

/** A proxy's or client's own id is kept when it is a short token (nothing to break a log line). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of an incoming request: its X-Request-Id when that is safe to log, else a new one. */
export function requestIdFrom(header) {
  const sent = Array.isArray(header) ? header[0] : header;
  return typeof sent === 'string' && SAFE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * Runs `fn` with `context` added to the current one: every line it logs carries it. Outside any,
 * `context` itself is the store: callers pass an object of their own and never change it.
 */
export function withLogContext(context, fn) {
  const outer = storage.getStore();
  // A request's own context as given (a literal of two spreads takes V8's slow path).
  return storage.run(outer ? { ...outer, ...context } : context, fn);
}

/** The current request's and job's ids (undefined outside any). */
export function logContext() {
  return storage.getStore();
}

/**
 * Runs `fn` outside any request: what it starts that outlives the request (a lazily started
 * job queue's timers) must not log with that request's id forever.
 */
export function outsideLogContext(fn) {
  return storage.exit(fn);
}
