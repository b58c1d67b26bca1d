import type { PrismaClient } from '@/server/db/client-type';
import type { HttpClient } from './block-request';
import type { Scheduler } from './scheduler';

/** What the engine needs from outside; tests pass their own clock and scheduler. */
export interface EngineDeps {
  db: PrismaClient;
  http: HttpClient;
  scheduler: Scheduler;
  now: () => Date;
  random?: () => number;
  /**
   * Called after the commit with every message stored, for projects with a webhook URL (the
   * webhook hooks in here).
   */
  onMessagesStored?: (projectId: number, messageIds: bigint[]) => Promise<void>;
}
