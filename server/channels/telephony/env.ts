import { z } from 'zod';
import { envSection } from '@/server/config/env';

/** Telephony (jambonz)'s configuration variables (README, "Configuration"), checked as the channels are installed. */
export const telephonyEnv = envSection({
  /**
   * How long an outbound call jambonz could not place (a rate limit, no feature server free,
   * a 5xx, a lost connection) stays queued and is tried again (a held send), in hours, before
   * its message records the error; 0: never tried again.
   */
  BLOCKBOT_TELEPHONY_HOLD_HOURS: z.coerce.number().min(0).max(48).default(1),
});
