import { z } from 'zod';

export interface SafeHttpConfig {
  /** Hosts (host, host:port, IP or CIDR) reached on purpose although private or local. */
  allowHosts: string[];
  /** Egress proxies by name; `proxy: 'de'` in requests_* uses `de`. */
  egressProxies: { de?: string };
  timeoutMs: number;
  connectTimeoutMs: number;
  maxBytes: number;
}

const schema = z.object({
  BLOCKBOT_HTTP_ALLOW_HOSTS: z.string().optional(),
  BLOCKBOT_EGRESS_PROXY_DE: z
    .url({ protocol: /^https?$/, error: 'BLOCKBOT_EGRESS_PROXY_DE must be an http:// proxy URL' })
    .optional()
    .or(z.literal('')),
  BLOCKBOT_HTTP_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  BLOCKBOT_HTTP_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  BLOCKBOT_HTTP_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
});

const NAMES = Object.keys(schema.shape) as (keyof typeof schema.shape)[];
let last: { raw: string; config: SafeHttpConfig } | undefined;

/**
 * Read from the environment on each call, as tests may change it; parsed again only when it
 * changed (every send of a bot comes here).
 */
export function getSafeHttpConfig(): SafeHttpConfig {
  const raw = JSON.stringify(NAMES.map((name) => process.env[name]));
  // Shared between calls, so frozen.
  if (last?.raw !== raw) last = { raw, config: Object.freeze(parseConfig()) };
  return last.config;
}

function parseConfig(): SafeHttpConfig {
  const env = schema.parse(process.env);
  return {
    allowHosts: (env.BLOCKBOT_HTTP_ALLOW_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    egressProxies: { de: env.BLOCKBOT_EGRESS_PROXY_DE || undefined },
    timeoutMs: env.BLOCKBOT_HTTP_TIMEOUT_MS,
    connectTimeoutMs: env.BLOCKBOT_HTTP_CONNECT_TIMEOUT_MS,
    maxBytes: env.BLOCKBOT_HTTP_MAX_BYTES,
  };
}
