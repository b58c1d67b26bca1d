import type { HttpClient } from './block-request';

/**
 * Outgoing requests (formulas' requests_*, block and condition requests) of one incoming event
 * and every follow-up event it causes, at most: so a bot cannot turn one message into thousands
 * of calls to a third party. The value of a formula run's own cap on in-flow calls (LIMITS.hostCalls).
 */
export const MAX_REQUESTS_PER_CHAIN = 50;

/**
 * Follow-up events (callback(), message() to another client) one incoming event may cause,
 * directly or through those follow-ups: two clients whose formulas call back each other stop.
 */
export const MAX_FOLLOW_UPS_PER_CHAIN = 20;

export type ChainLimit = 'requests' | 'follow_ups' | 'blocks';

/**
 * The budget of one incoming event and its whole chain of follow-up events (other clients'
 * events included): created where an event comes in, passed to every event it causes.
 */
export class EventChain {
  private requests = 0;
  private followUps = 0;
  private readonly reported = new Set<ChainLimit>();

  /** The request client of this chain: past the cap, a request fails with a clear error. */
  guard(http: HttpClient, onRefused: (message: string) => void): HttpClient {
    return (url, init) => {
      if (++this.requests > MAX_REQUESTS_PER_CHAIN) {
        const message = `Request not sent: at most ${MAX_REQUESTS_PER_CHAIN} outgoing requests per incoming message, its formulas, block requests and follow-up events together.`;
        onRefused(message);
        return Promise.reject(new Error(message));
      }
      return http(url, init);
    };
  }

  /** Counts one follow-up event; past the cap, the reason it is not handled. */
  takeFollowUp(): string | null {
    if (++this.followUps <= MAX_FOLLOW_UPS_PER_CHAIN) return null;
    return `Follow-up event not handled: at most ${MAX_FOLLOW_UPS_PER_CHAIN} events (callback(), message() to other clients) follow one incoming message; check the bot for clients that call back each other.`;
  }

  /** True the first time a limit stops something in this chain: one server log line each. */
  firstStop(limit: ChainLimit): boolean {
    if (this.reported.has(limit)) return false;
    this.reported.add(limit);
    return true;
  }
}
