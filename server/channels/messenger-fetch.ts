import { safeFetch } from '@/server/http';
import { metrics } from '@/server/metrics/metrics';

/**
 * `safeFetch` for a messenger's API, each answer counted by its HTTP status (or `error` when
 * none came) under the channel kind: `blockbot_messenger_api_responses_total`, whose 429s and
 * 5xx tell an operator the messenger is pushing back.
 */
export function messengerFetch(channel: string): typeof safeFetch {
  return async (url, init, config) => {
    try {
      const response = await safeFetch(url, init, config);
      metrics().messengerApiResponses.inc({ channel, status: String(response.status) });
      return response;
    } catch (error) {
      metrics().messengerApiResponses.inc({ channel, status: 'error' });
      throw error;
    }
  };
}
