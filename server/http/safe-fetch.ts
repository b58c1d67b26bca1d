import dns from 'node:dns';
import { Agent, type Dispatcher, ProxyAgent, request } from 'undici';
import { logFor } from '@/server/log';
import { blockedReason, isAllowed, isIpLiteral, stripBrackets } from './address-policy';
import { getSafeHttpConfig, type SafeHttpConfig } from './config';
import { SafeHttpError } from './errors';
import { checkRequestHeaders } from './request-headers';

const log = logFor('http');

export interface SafeFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs?: number;
  connectTimeoutMs?: number;
  maxBytes?: number;
  /** Redirects to follow, each checked again like the first request; 0 returns the 3xx as is. */
  followRedirects?: number;
  /** Only 'de': through the configured egress proxy. */
  proxy?: string;
  /** The caller's own reason to stop (a job whose claim was taken away): ends the request at once. */
  signal?: AbortSignal;
}

export interface SafeResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  bytes: Uint8Array;
  url: string;
  durationMs: number;
}

interface Target {
  url: URL;
  /** The checked address the connection is pinned to. */
  address: string;
  family: 4 | 6;
}

/** A response whose body is streamed, never held whole: it errors once it passes the cap. */
export interface SafeStreamResponse {
  status: number;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array>;
  url: string;
}

/**
 * The one way Blockbot calls other servers: http(s) only, every resolved address checked and
 * the connection pinned to it, redirects re-checked, timeouts and a size cap, no proxy
 * variables from the environment.
 */
export async function safeFetch(
  rawUrl: string,
  init: SafeFetchInit = {},
  config: SafeHttpConfig = getSafeHttpConfig(),
): Promise<SafeResponse> {
  const started = Date.now();
  const { response, url, timeoutMs } = await open(rawUrl, init, config);
  try {
    const bytes = await readCapped(response.body, init.maxBytes ?? config.maxBytes, url);
    return {
      status: response.statusCode,
      headers: flattenHeaders(response.headers),
      body: new TextDecoder().decode(bytes),
      bytes,
      url: url.toString(),
      durationMs: Date.now() - started,
    };
  } catch (error) {
    throw toSafeError(error, url, timeoutMs, init.signal);
  }
}

/**
 * `safeFetch` for a body passed on as it arrives (a file served through us, a model's streamed
 * answer): the same checks and timeouts, the timeout covering the whole body; a body declared
 * larger than the cap is refused before it is read, and one that turns out larger is cut there,
 * the stream ending with the error.
 */
export async function safeFetchStream(
  rawUrl: string,
  init: SafeFetchInit = {},
  config: SafeHttpConfig = getSafeHttpConfig(),
): Promise<SafeStreamResponse> {
  const { response, url, timeoutMs } = await open(rawUrl, init, config);
  const maxBytes = init.maxBytes ?? config.maxBytes;
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
    response.body.destroy();
    throw tooLarge(url, maxBytes);
  }
  const chunks = response.body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  let size = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) return controller.close();
        size += next.value.byteLength;
        if (size > maxBytes) throw tooLarge(url, maxBytes);
        controller.enqueue(next.value);
      } catch (error) {
        response.body.destroy();
        controller.error(toSafeError(error, url, timeoutMs, init.signal));
      }
    },
    cancel() {
      response.body.destroy();
    },
  });
  return {
    status: response.statusCode,
    headers: flattenHeaders(response.headers),
    body,
    url: url.toString(),
  };
}

/** Sends the request, following the redirects allowed; the answer's body is not read yet. */
async function open(rawUrl: string, init: SafeFetchInit, config: SafeHttpConfig) {
  const timeoutMs = init.timeoutMs ?? config.timeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const deadline = init.signal ? AbortSignal.any([timeout, init.signal]) : timeout;
  const proxyUrl = resolveProxy(init.proxy, config);
  let url = parseUrl(rawUrl);
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  // A Host header naming the URL is dropped here, so a redirect's request names its own host.
  const headers = checkRequestHeaders(init.headers ?? {}, url);
  for (let hop = 0; ; hop++) {
    const target = await resolveTarget(url, config);
    const connectTimeoutMs = init.connectTimeoutMs ?? config.connectTimeoutMs;
    const dispatcher = reusedDispatcher(
      `${proxyUrl ?? ''} ${url.protocol}//${url.host} ${target.address} ${connectTimeoutMs}`,
      () =>
        proxyUrl
          ? pinnedProxyAgent(proxyUrl, target, connectTimeoutMs)
          : pinnedAgent(target, connectTimeoutMs),
    );
    try {
      const response = proxyUrl
        ? await send(
            dispatcher,
            addressUrl(target),
            method,
            { host: url.host, ...headers },
            body,
            deadline,
            timeoutMs,
          )
        : await send(dispatcher, url, method, headers, body, deadline, timeoutMs);
      const location = response.headers.location;
      if (
        response.statusCode >= 300 &&
        response.statusCode < 400 &&
        location &&
        hop < (init.followRedirects ?? 0)
      ) {
        await response.body.dump();
        url = parseUrl(new URL(Array.isArray(location) ? location[0] : location, url).toString());
        if (
          response.statusCode === 303 ||
          ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')
        ) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      // The host only: a path or query can carry a token, a body anything.
      log.debug(
        { method, host: url.host, status: response.statusCode },
        `${method} ${url.host} ${response.statusCode}`,
      );
      return { response, url, timeoutMs };
    } catch (error) {
      const failed = toSafeError(error, url, timeoutMs, init.signal);
      log.debug(
        { method, host: url.host, error: failed.code },
        `${method} ${url.host} failed: ${failed.code}`,
      );
      throw failed;
    }
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new SafeHttpError(
      'bad_url',
      `"${raw.slice(0, 200)}" is not a URL; it should look like https://api.example.com/path.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeHttpError(
      'bad_url',
      `Only http:// and https:// addresses can be called, not ${url.protocol}//.`,
    );
  }
  return url;
}

function resolveProxy(proxy: string | undefined, config: SafeHttpConfig): string | undefined {
  if (proxy === undefined || proxy === '') return undefined;
  if (proxy !== 'de')
    throw new SafeHttpError(
      'bad_proxy',
      `proxy must be 'de' (a European address) or left out, not '${proxy}'.`,
    );
  if (!config.egressProxies.de) {
    throw new SafeHttpError(
      'proxy_not_configured',
      "proxy 'de' is not configured on this server: set BLOCKBOT_EGRESS_PROXY_DE.",
    );
  }
  return config.egressProxies.de;
}

/** How BLOCKBOT_HTTP_ALLOW_HOSTS names this host and port (an IPv6 address in brackets). */
const hostPort = (host: string, port: string) =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

async function resolveTarget(url: URL, config: SafeHttpConfig): Promise<Target> {
  const host = stripBrackets(url.hostname);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  let addresses: { address: string; family: number }[];
  if (isIpLiteral(host)) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
    } catch {
      throw new SafeHttpError('dns', `The host ${host} could not be found. Check the address.`);
    }
  }
  if (!addresses.length) throw new SafeHttpError('dns', `The host ${host} has no address.`);
  for (const { address } of addresses) {
    if (isAllowed(config.allowHosts, host, port, address)) continue;
    const reason = blockedReason(address);
    if (reason) {
      const shown = host === address ? address : `${host} (${address})`;
      throw new SafeHttpError(
        'blocked_address',
        `${shown} ${reason}; outgoing requests may not reach it. For local development, or a service of your own on this network, start Blockbot with BLOCKBOT_HTTP_ALLOW_HOSTS=${hostPort(host, port)} (several comma separated; README, Configuration).`,
      );
    }
  }
  const first = addresses[0];
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** Agents kept for their open connections; the least recently used beyond this many is closed. */
const MAX_AGENTS = 64;
const agents = new Map<string, Dispatcher>();

/**
 * The agent of one checked address (and proxy), reused so its idle connections serve the next
 * requests there (keep-alive) instead of each request opening its own. A name that resolves
 * to another address gets another agent: a connection only ever reaches a checked address.
 */
function reusedDispatcher(key: string, create: () => Dispatcher): Dispatcher {
  let agent = agents.get(key);
  if (agent) agents.delete(key);
  else agent = create();
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldest, evicted] = agents.entries().next().value as [string, Dispatcher];
    agents.delete(oldest);
    // Its requests in flight finish first.
    void evicted.close().catch(() => {});
  }
  return agent;
}

/** An agent whose every connection goes to the checked address, so DNS cannot change it in between. */
function pinnedAgent(target: Target, connectTimeoutMs: number): Agent {
  return new Agent({
    connect: {
      timeout: connectTimeoutMs,
      servername: isIpLiteral(target.url.hostname) ? undefined : target.url.hostname,
      lookup: (_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
        else callback(null, target.address, target.family);
      },
    } as never,
  });
}

/**
 * Through the egress proxy the request goes to the checked address (the CONNECT names the IP),
 * so the proxy does not resolve the name again; TLS still names the host (SNI and the
 * certificate check), and so does the Host header the caller sets.
 */
function pinnedProxyAgent(proxyUrl: string, target: Target, connectTimeoutMs: number): ProxyAgent {
  return new ProxyAgent({
    uri: proxyUrl,
    proxyTls: { timeout: connectTimeoutMs },
    requestTls: {
      timeout: connectTimeoutMs,
      servername: isIpLiteral(target.url.hostname) ? undefined : target.url.hostname,
    },
  });
}

function addressUrl(target: Target): URL {
  const url = new URL(target.url);
  url.hostname = target.family === 6 ? `[${target.address}]` : target.address;
  return url;
}

function send(
  dispatcher: Dispatcher,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  signal: AbortSignal,
  timeoutMs: number,
) {
  return request(url, {
    dispatcher,
    method: method as Dispatcher.HttpMethod,
    headers,
    body,
    signal,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}

const tooLarge = (url: URL, maxBytes: number) =>
  new SafeHttpError(
    'too_large',
    `The reply from ${url.host} is larger than ${Math.round(maxBytes / 1024)} KiB, the limit; it was not read.`,
  );

async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy?: () => void },
  maxBytes: number,
  url: URL,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy?.();
      throw tooLarge(url, maxBytes);
    }
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function toSafeError(error: unknown, url: URL, timeoutMs: number, cancel?: AbortSignal): SafeHttpError {
  if (error instanceof SafeHttpError) return error;
  if (cancel?.aborted) {
    const reason = cancel.reason instanceof Error ? cancel.reason.message : String(cancel.reason);
    return new SafeHttpError('cancelled', `The request to ${url.host} was stopped: ${reason}.`);
  }
  const e = error as { name?: string; code?: string; message?: string };
  if (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e.code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return new SafeHttpError('timeout', `${url.host} did not answer within ${timeoutMs / 1000} s.`);
  }
  if (e.code === 'UND_ERR_CONNECT_TIMEOUT')
    return new SafeHttpError('timeout', `Could not connect to ${url.host} in time.`);
  return new SafeHttpError('network', `The request to ${url.host} failed: ${e.message ?? 'network error'}.`);
}
