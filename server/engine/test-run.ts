import type { AiCallOutcome, AiCallRequest } from '@/server/ai/ai-call';

/**
 * What a conversation test (server/conversation-tests, docs/conversation-tests.md) changes in the
 * engine it runs on: the same engine as every client, with the event's AI calls and messenger
 * functions answered by the test's stubs, its time zone fixed, and nothing done to other
 * clients. Its requests, clock and timers come through EngineDeps (`http`, `now`, `scheduler`).
 */
export interface TestRunHooks {
  /** The test's time zone, in place of the project's. */
  timeZone?: string;
  /** An AI call: the stub's answer, or `live()` (the provider) on a step that says so. */
  ai(
    request: AiCallRequest,
    where: Record<string, unknown>,
    live: () => Promise<AiCallOutcome>,
  ): Promise<AiCallOutcome>;
  /** A messenger function (`tg_get_chat_member`…): the stub's result. */
  messenger(name: string, args: unknown[]): Promise<unknown>;
}

/** Said in the log when a test's bot reaches for another client: a test never touches one. */
export const OTHER_CLIENTS_LEFT_ALONE =
  'A conversation test does not reach other clients: this was not carried out.';
