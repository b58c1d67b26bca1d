import type { PrismaClient } from '@/server/db/client-type';
import type { HttpClient } from './block-request';
import type { WebhookTarget } from './outbox-rows';
import type { Scheduler } from './scheduler';
import type { TestRunHooks } from './test-run';

/** What the engine needs from outside; tests pass their own clock and scheduler. */
export interface EngineDeps {
  db: PrismaClient;
  http: HttpClient;
  scheduler: Scheduler;
  now: () => Date;
  random?: () => number;
  /**
   * Queues the webhook deliveries (of messages and submissions) of an event's outbox (projects
   * with a webhook URL); without it they stay in the outbox.
   */
  queueWebhooks?: (
    projectId: number,
    deliveries: { target: WebhookTarget; outboxId: bigint }[],
  ) => Promise<void>;
  /** The events run a conversation test (server/conversation-tests): its stubs and time zone. */
  testRun?: TestRunHooks;
}
