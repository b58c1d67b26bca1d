import { z } from 'zod';
import { envSection, optionalString } from '@/server/config/env';

/** The social network (Instagram)'s configuration variables (README, "Configuration"), checked as the channels are installed. */
export const socialEnv = envSection({
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
});
