import { z } from 'zod';

/**
 * The Viber channel's configuration variables (docs/channels/viber.md), read and checked here,
 * once per process (`resetViberEnv` for tests that change them).
 */
const viberEnvSchema = z.object({
  /** The REST Bot API's base address; tests point it at their fake. */
  BLOCKBOT_VIBER_API_URL: z
    .string()
    .trim()
    .default('https://chatapi.viber.com/pa')
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) address' }))
    .transform((url) => url.replace(/\/+$/, '')),
  /**
   * How long a send Viber keeps refusing for its rate limit (status 12) or cannot take (a 5xx,
   * no answer) stays queued from when it was queued, tried again with growing pauses, before it
   * fails: 0 fails it at once.
   */
  BLOCKBOT_VIBER_HOLD_HOURS: z.coerce.number().min(0).max(168).default(24),
});

export type ViberEnv = z.infer<typeof viberEnvSchema>;

let cached: ViberEnv | undefined;

export function viberEnv(): ViberEnv {
  if (cached) return cached;
  const parsed = viberEnvSchema.safeParse({
    BLOCKBOT_VIBER_API_URL: process.env.BLOCKBOT_VIBER_API_URL || undefined,
    BLOCKBOT_VIBER_HOLD_HOURS: process.env.BLOCKBOT_VIBER_HOLD_HOURS || undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid environment: ${String(issue?.path[0])} ${issue?.message}`);
  }
  cached = parsed.data;
  return cached;
}

export function resetViberEnv(): void {
  cached = undefined;
}
