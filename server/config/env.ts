import { z } from 'zod';
import { PLANS } from '@/lib/formula/plans';
import { SIGN_UP_MODES } from '@/lib/instance/sign-up';
import { LOG_FORMATS, LOG_LEVELS } from '@/server/log/create-logger.mjs';

/**
 * Every environment variable Blockbot reads, validated with zod: the core's here, a channel
 * kind's in its module's section (`server/channels/<kind>/env.ts`, made with `envSection`,
 * checked with the rest as the channels are installed at start). Nothing is required: with no
 * environment at all the app runs on the embedded database. Documented in the README and
 * .env.example.
 */
export const optionalString = z
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
    /**
     * Who may create an account: open, invite-only or closed. Set, it fixes the mode (the
     * instance page shows it locked); unset, the admin chooses there (docs/operations.md).
     */
    BLOCKBOT_SIGNUP: optionalString.pipe(
      z
        .enum(SIGN_UP_MODES, {
          error: (issue) => `must be open, invite-only or closed (got "${String(issue.input)}")`,
        })
        .optional(),
    ),
    /** The least severe log lines written (server/log); `silent` writes none. */
    BLOCKBOT_LOG_LEVEL: optionalString.pipe(z.enum(LOG_LEVELS).default('info')),
    /** `json` lines, or `pretty` ones; unset: pretty on a terminal, JSON otherwise. */
    BLOCKBOT_LOG_FORMAT: optionalString.pipe(z.enum(LOG_FORMATS).optional()),
    /** Public API requests per minute per key. */
    BLOCKBOT_API_RATE_LIMIT: z.coerce.number().int().positive().default(600),
    /** How long a webhook receiver gets to answer a delivery (connect and answer), in ms. */
    BLOCKBOT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    /** Reverse proxies in front of the app: X-Forwarded-For's last this many entries are theirs. */
    BLOCKBOT_TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
    /**
     * How long an event may hold its client; after a crash, the clients whose events were in
     * flight wait this long before their next event runs.
     */
    BLOCKBOT_CLIENT_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
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
    /** Bearer token of `/api/metrics`; unset = no metrics served (docs/operations.md). */
    BLOCKBOT_METRICS_TOKEN: optionalString.pipe(
      z.string().min(16, 'must be at least 16 characters (a random token: openssl rand -hex 32)').optional(),
    ),
    /** The port of `npm run worker`'s health, readiness and metrics endpoints. */
    BLOCKBOT_WORKER_PORT: z.coerce.number().int().min(1).max(65535).default(3001),
    /**
     * On SIGTERM, how long /api/ready answers 503 before the process stops taking requests: the
     * load balancer's time to notice (its probe interval times its failure threshold).
     */
    BLOCKBOT_SHUTDOWN_DELAY_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
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

/** The environment read by a schema, or an error naming each variable and what it must be. */
function parseEnv<T>(schema: z.ZodType<T>): T {
  const result = schema.safeParse(process.env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Blockbot's environment is invalid: ${lines.join('; ')}`);
  }
  return result.data;
}

export function getEnv(): Env {
  cached ??= parseEnv(envSchema);
  return cached;
}

/** A part's variables, read once (until resetEnvCache) and checked like the core's. */
export type EnvSection<T> = (() => T) & { variables: readonly string[] };

const sectionResets: (() => void)[] = [];

/** A part's own configuration variables (a channel module's `env.ts`), by their zod schemas. */
export function envSection<S extends z.ZodRawShape>(shape: S): EnvSection<z.infer<z.ZodObject<S>>> {
  const schema = z.object(shape);
  let section: z.infer<typeof schema> | undefined;
  sectionResets.push(() => {
    section = undefined;
  });
  return Object.assign(
    () => {
      section ??= parseEnv(schema);
      return section;
    },
    { variables: Object.keys(shape) },
  );
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
  for (const reset of sectionResets) reset();
}
