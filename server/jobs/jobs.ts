import type { Job, PgBoss, QueuePolicy, SendOptions } from 'pg-boss';
import { logContext, logFor, withLogContext } from '@/server/log';
import { getBoss, onBossStop } from './boss';

const log = logFor('jobs');

/** A durable job kind: its queue name and its handler. Handlers must be safe to run twice. */
export interface JobDefinition<T extends object> {
  name: string;
  handle(data: T, job: Job<T>): Promise<void>;
  /** Jobs fetched per poll; PGlite fetches one per poll by default, far too slow for timers. */
  batchSize?: number;
  pollingIntervalSeconds?: number;
  /**
   * Jobs run side by side, at most `perGroup` of one group at a time in this process, with
   * `workers` batches in flight: a group whose jobs hang holds up only its own. Counted in this
   * process, where the count is exact (a fetched job past it is put back before it runs); the
   * database's count races when workers fetch at once, and let one group take every worker.
   * Across processes a group runs at most `perGroup` per process.
   */
  groups?: { of(data: T): string; perGroup: number; workers: number };
  /**
   * Jobs independent of each other and of their order (a broadcast's recipients): a batch's
   * jobs run side by side, with `workers` batches in flight, so jobs that mostly wait (for a
   * messenger's pacing) do not wait one after another.
   */
  sideBySide?: { workers: number };
  /** The queue's policy; `stately` keeps at most one queued and one active job per singletonKey. */
  policy?: QueuePolicy;
  /**
   * Where a job goes once its retries are spent (it failed, or its worker died, every time):
   * this job kind gets the same data (pg-boss's dead letter queue).
   */
  deadLetter?: JobDefinition<T>;
  /**
   * Consumes the queue itself instead of pg-boss's `work` (webhook deliveries: batched fetches
   * and writes, per-project adaptive concurrency, server/webhooks/webhook-dispatcher.ts);
   * returns how to stop, which `stopBoss` calls before pg-boss stops. `handle` is then unused.
   */
  consume?(boss: PgBoss, queue: string): Promise<() => Promise<void>>;
}

/** A job whose worker dies (no heartbeat for this long) is retried by another worker. */
const HEARTBEAT_SECONDS = 10;

export function defineJob<T extends object>(definition: JobDefinition<T>): JobDefinition<T> {
  return definition;
}

export async function enqueue<T extends object>(
  definition: JobDefinition<T>,
  data: T,
  options: SendOptions = {},
): Promise<string | null> {
  const boss = await getBoss();
  await ensureQueue(boss, definition);
  return boss.send(definition.name, withRequestId(data), {
    heartbeatSeconds: HEARTBEAT_SECONDS,
    ...jobOptions(definition, data),
    ...options,
  });
}

/** Many jobs of one kind in one statement (a broadcast's sends). */
export async function enqueueMany<T extends object>(
  definition: JobDefinition<T>,
  items: { data: T; startAfter?: Date; singletonKey?: string; retryLimit?: number }[],
): Promise<void> {
  const boss = await getBoss();
  await ensureQueue(boss, definition);
  for (let i = 0; i < items.length; i += 500) {
    await boss.insert(
      definition.name,
      items.slice(i, i + 500).map((item) => ({
        heartbeatSeconds: HEARTBEAT_SECONDS,
        ...jobOptions(definition, item.data),
        ...item,
        data: withRequestId(item.data),
      })),
    );
  }
}

/**
 * The id of the request (or job) queuing a job, kept in its data so the worker logs that job's
 * lines with it: one request followed across processes. Handlers never see it.
 */
const REQUEST_ID = '_requestId';

function withRequestId<T extends object>(data: T): T {
  const requestId = logContext()?.requestId;
  return requestId ? { ...data, [REQUEST_ID]: requestId } : data;
}

/** Runs a job's work with its id, and the id of the request that queued it, on every line logged. */
export function inJobContext<T extends object, R>(job: Job<T>, work: (data: T) => R): R {
  const { [REQUEST_ID]: requestId, ...data } = job.data as T & { [REQUEST_ID]?: unknown };
  return withLogContext({ jobId: job.id, ...(typeof requestId === 'string' && { requestId }) }, () =>
    work(data as T),
  );
}

/** Each job's group and dead letter queue (set per job: a queue made before it had none). */
function jobOptions<T extends object>(
  definition: JobDefinition<T>,
  data: T,
): { group?: { id: string }; deadLetter?: string } {
  return {
    ...(definition.groups && { group: { id: definition.groups.of(data) } }),
    ...(definition.deadLetter && { deadLetter: definition.deadLetter.name }),
  };
}

export async function cancelJob(definition: JobDefinition<object>, jobId: string): Promise<void> {
  const boss = await getBoss();
  await boss.cancel(definition.name, jobId);
}

const createdQueues = new Set<string>();

async function ensureQueue<T extends object>(boss: PgBoss, definition: JobDefinition<T>): Promise<void> {
  const { name, policy, deadLetter } = definition;
  if (createdQueues.has(name)) return;
  // A job names its dead letter queue: that queue must exist first.
  if (deadLetter) await ensureQueue(boss, deadLetter);
  if (!(await boss.getQueue(name))) await boss.createQueue(name, policy ? { policy } : {});
  createdQueues.add(name);
}

/** Starts handling the given job kinds in this process; returns when the workers are registered. */
export async function startWorkers(definitions: readonly JobDefinition<object>[]): Promise<void> {
  const boss = await getBoss();
  for (const definition of definitions) {
    await ensureQueue(boss, definition);
    if (definition.consume) {
      onBossStop(await definition.consume(boss, definition.name));
      continue;
    }
    await boss.work<object>(
      definition.name,
      {
        batchSize: definition.batchSize ?? 20,
        pollingIntervalSeconds: definition.pollingIntervalSeconds ?? 0.5,
        ...(definition.groups && {
          localConcurrency: definition.groups.workers,
          localGroupConcurrency: definition.groups.perGroup,
        }),
        ...(definition.sideBySide && { localConcurrency: definition.sideBySide.workers }),
      },
      async (jobs) => {
        // One failing job must not fail (and retry) the rest of its batch.
        const run = async (job: Job<object>) => {
          try {
            await inJobContext(job, (data) => definition.handle(data, job));
          } catch (error) {
            log.error(
              { job: definition.name, jobId: job.id },
              `${definition.name} ${job.id} failed: ${(error as Error).message}`,
            );
            // Fenced to this attempt: a job whose claim was taken away is settled by its retry.
            await boss.fail(
              definition.name,
              { id: job.id, retryCount: job.retryCount },
              { message: (error as Error).message },
            );
          }
        };
        // Grouped jobs are independent of each other; the others keep their order.
        if (definition.groups || definition.sideBySide) await Promise.all(jobs.map(run));
        else for (const job of jobs) await run(job);
      },
    );
  }
}
