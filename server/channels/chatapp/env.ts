import { z } from 'zod';
import { envSection, optionalString } from '@/server/config/env';

/** The chat-app messenger's configuration variables (README, "Configuration"), checked as the channels are installed. */
export const chatappEnv = envSection({
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
});
