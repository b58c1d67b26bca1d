import { z } from 'zod';
import { envSection, optionalString } from '@/server/config/env';

/** Viber's configuration variables (docs/channels/viber.md), checked as the channels are installed. */
export const viberEnv = envSection({
  /** The REST Bot API's base address; tests point it at their fake. */
  BLOCKBOT_VIBER_API_URL: optionalString
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) address' }).optional())
    .transform((url) => (url ?? 'https://chatapi.viber.com/pa').replace(/\/+$/, '')),
  /**
   * How long a send Viber keeps refusing for its rate limit (status 12) or cannot take (a 5xx,
   * no answer) stays queued from when it was queued, tried again with growing pauses, before it
   * fails: 0 fails it at once.
   */
  BLOCKBOT_VIBER_HOLD_HOURS: z.coerce.number().min(0).max(168).default(24),
});
