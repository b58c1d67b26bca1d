import { z } from 'zod';
import { PLANS } from '@/lib/formula/plans';

/**
 * Every environment variable Blockbot reads, validated in one place. Nothing is required:
 * with no environment at all the app runs on the embedded database. Documented in the
 * README and .env.example.
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    /** Where users reach the app; sign-in cookies and trusted origins are tied to it. */
    BLOCKBOT_BASE_URL: optionalString.pipe(z.url().optional()),
    /** PostgreSQL server mode; unset = embedded PGlite in the data directory. */
    DATABASE_URL: optionalString,
    BLOCKBOT_DATA_DIR: optionalString,
    /** Session signing secret; generated into the data directory in embedded mode. */
    BLOCKBOT_AUTH_SECRET: optionalString.pipe(z.string().min(32).optional()),
    /** Run the job worker inside the web server (default in embedded mode; see `npm run worker`). */
    BLOCKBOT_INLINE_WORKER: optionalString.pipe(z.enum(['true', 'false']).optional()),
    /** Sign-in/sign-up rate limiting; tests switch it off. */
    BLOCKBOT_AUTH_RATE_LIMIT: optionalString.pipe(z.enum(['on', 'off']).optional()),
    /** Public API requests per minute per key. */
    BLOCKBOT_API_RATE_LIMIT: z.coerce.number().int().positive().default(600),
    /** How long a webhook receiver gets to answer a delivery (connect and answer), in ms. */
    BLOCKBOT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    /** Reverse proxies in front of the app: X-Forwarded-For's last this many entries are theirs. */
    BLOCKBOT_TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
    /** The tg messenger's Bot API server; tests and self-hosted Bot API servers change it. */
    BLOCKBOT_TG_API_ROOT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /**
     * How long an event may hold its client; after a crash, the clients whose events were in
     * flight wait this long before their next event runs.
     */
    BLOCKBOT_CLIENT_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
    /**
     * How long a tg send the Bot API could not take (a 5xx, a network error) is tried again, with
     * growing pauses, before its message records the error.
     */
    BLOCKBOT_TG_RETRY_SECONDS: z.coerce.number().min(0).max(600).default(30),
    /** The WhatsApp Cloud API's Graph API root, with its version; tests change it. */
    BLOCKBOT_CHATAPP_API_ROOT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /**
     * How long a chat-app send the Cloud API could not take (a 5xx, a network error, a rate
     * limit) is tried again, with growing pauses, before its message records the error.
     */
    BLOCKBOT_CHATAPP_RETRY_SECONDS: z.coerce.number().min(0).max(600).default(30),
    /**
     * How long a chat-app message the Cloud API or a gateway keeps failing to take (past the
     * first BLOCKBOT_CHATAPP_RETRY_SECONDS), or written while its gateway session is not working
     * (not paired, the phone offline), stays queued, tried again with growing pauses (and at once
     * when the session works again), before it fails. 0: it fails at once.
     */
    BLOCKBOT_CHATAPP_HOLD_HOURS: z.coerce.number().min(0).max(720).default(24),
    /**
     * The Instagram messaging API's Graph API root, with its version; tests change it. Unset:
     * graph.facebook.com (a Page token) or graph.instagram.com (an Instagram token), v21.0.
     */
    BLOCKBOT_SOCIAL_API_ROOT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /**
     * How long a social-network send the Graph API could not take (throttling, a 5xx, a network
     * error) is tried again in the process, with growing pauses, on its first try; then it is held.
     */
    BLOCKBOT_SOCIAL_RETRY_SECONDS: z.coerce.number().min(0).max(600).default(10),
    /**
     * How long, from when it was queued, a social-network send Meta keeps failing to take stays
     * held and is tried again (15 s, 30 s, … up to 30 min apart) before its message records the
     * error; 0: never held. At most 7 days: Instagram takes nothing later (HUMAN_AGENT's window).
     */
    BLOCKBOT_SOCIAL_HOLD_HOURS: z.coerce.number().min(0).max(168).default(24),
    /**
     * How long an outbound call jambonz could not place (a rate limit, no feature server free,
     * a 5xx, a lost connection) stays queued and is tried again (a held send), in hours, before
     * its message records the error; 0: never tried again.
     */
    BLOCKBOT_TELEPHONY_HOLD_HOURS: z.coerce.number().min(0).max(48).default(1),
    /** Key of messenger tokens at rest (32 bytes, hex or base64); generated in embedded mode. */
    BLOCKBOT_ENCRYPTION_KEY: optionalString,
    /** The mail server for invites, smtp://user:pass@host:587 (STARTTLS) or smtps://…:465; unset = links shown. */
    BLOCKBOT_SMTP_URL: optionalString.pipe(
      z
        .url({
          protocol: /^smtps?$/,
          error: 'must be an smtp:// or smtps:// URL, like smtp://user:pass@host:587',
        })
        .optional(),
    ),
    /** The plan of new projects (Settings, Plan; it only gates in-flow functions): free unless set. */
    BLOCKBOT_DEFAULT_PLAN: optionalString.pipe(
      z
        .enum(PLANS, {
          error: (issue) =>
            `must be ${PLANS.join(', ').replace(/, (?=\w+$)/, ' or ')} (got "${String(issue.input)}")`,
        })
        .default('free'),
    ),
    /** The sender of Blockbot's mail: an address, or "Name <address>". Required with BLOCKBOT_SMTP_URL. */
    BLOCKBOT_MAIL_FROM: optionalString.pipe(
      z
        .string()
        .regex(
          /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
          'must be an address, or "Name <address>"',
        )
        .optional(),
    ),
  })
  .refine((env) => !env.BLOCKBOT_SMTP_URL || env.BLOCKBOT_MAIL_FROM, {
    path: ['BLOCKBOT_MAIL_FROM'],
    message: 'is required when BLOCKBOT_SMTP_URL is set (the sender of invite e-mails)',
  });

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export class EnvError extends Error {}

export function getEnv(): Env {
  if (cached) return cached;
  const result = envSchema.safeParse(process.env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Blockbot's environment is invalid: ${lines.join('; ')}`);
  }
  cached = result.data;
  return cached;
}

export function isServerMode(env: Env = getEnv()): boolean {
  return env.DATABASE_URL !== undefined;
}

export function baseUrl(env: Env = getEnv()): string {
  return env.BLOCKBOT_BASE_URL ?? `http://localhost:${env.PORT}`;
}

/** For tests that change process.env between cases. */
export function resetEnvCache(): void {
  cached = undefined;
}
