import { z } from 'zod';
import { envSection, optionalString } from '@/server/config/env';

/** The tg messenger's configuration variables (README, "Configuration"), checked as the channels are installed. */
export const tgEnv = envSection({
  /** The tg messenger's Bot API server; tests and self-hosted Bot API servers change it. */
  BLOCKBOT_TG_API_ROOT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /**
   * How long a tg send the Bot API could not take (a 5xx, a network error) is tried again, with
   * growing pauses, before its message records the error.
   */
  BLOCKBOT_TG_RETRY_SECONDS: z.coerce.number().min(0).max(600).default(30),
});
