import type { Job, PgBoss } from 'pg-boss';
import type { DeliveryStatus } from '@/lib/history-message';
import { AdaptiveConcurrency } from '@/lib/webhooks/adaptive-concurrency';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { GroupWrite } from '@/server/db/group-write';
import { plainSql } from '@/server/db/raw-sql';
import {
  finishOutboxes,
  insertDeliveries,
  openEarlierDeliveries,
  putBackJobs,
  takeOutboxes,
} from '@/server/db/webhook-sql';
import type { WebhookTarget } from '@/server/engine/outbox-rows';
import { safeFetch } from '@/server/http';
import { inJobContext } from '@/server/jobs/jobs';
import { logFor } from '@/server/log';
import { metrics } from '@/server/metrics/metrics';
import { deliveryRow, type PreparedWebhook, prepareWebhooks, sendWebhook } from './webhook-delivery';

const log = logFor('webhooks');

/**
 * The worker's webhook deliveries (docs/architecture.md, "The outbox"): one loop per worker
 * process fetches `webhook.deliver` jobs in batches, reads what they deliver in a few
 * statements a batch, sends them side by side over kept-alive connections, and records the
 * answers, ends the outbox rows and completes the jobs in a few statements a batch.
 *
 * - Per project, at most `AdaptiveConcurrency.limit` deliveries at once: it starts at 2, grows
 *   while the receiver answers quickly, halves when it slows or fails. A receiver that hangs
 *   holds its own project's 2, nothing else: its project's jobs wait in memory (at most
 *   `backlogOf` of them; the fetch skips the project's group past it) and other projects'
 *   deliveries go on.
 * - Per client, one delivery at a time, in their outbox rows' order (the order the engine
 *   wrote them; jobs without a row, in the order they were queued): the next starts once the
 *   previous got its answer (or none). Across worker processes too: a delivery whose client
 *   has an earlier one still to do that this process does not hold (another worker has it,
 *   or its retry after a crash is to come) waits for it, its claim kept, asking again every
 *   RECHECK_MS, for at most ORDER_WAIT_MAX_MS (then it goes, and says so in the log).
 * - A held job's claim is kept by a heartbeat (every 4 s, its jobs touched in one statement); a
 *   job whose claim is found gone (taken away, expired) is not sent, or its request is stopped,
 *   and left to its retry. A job held unsent for HOLD_MAX_MS is put back, with its client's
 *   later ones, so it never outlives its claim's expiry in memory.
 */
export interface WebhookJobData {
  projectId: number;
  messageId?: string;
  status?: DeliveryStatus;
  submissionId?: number;
  outboxId?: string;
}

/** Jobs a fetch, and held (fetched, not yet settled) in this process at most. */
const FETCH_MAX = 250;
const HELD_MAX = 2000;
/** An empty fetch waits this long before the next, unless this process queues a delivery. */
const POLL_MS = 500;
/** Claims are touched this often; a job's heartbeat is 10 s (server/jobs/jobs.ts). */
const HEARTBEAT_MS = 4000;
/** A job fetched but not sent for this long is put back (pg-boss expires claims after 15 min). */
const HOLD_MAX_MS = 5 * 60_000;
/** A delivery waiting for its client's earlier ones held elsewhere asks again this often… */
const RECHECK_MS = 250;
/**
 * …for this long at most: longer than a dead worker's job takes to be retried (its heartbeat,
 * 10 s, then pg-boss's supervision, 10 s), shorter than HOLD_MAX_MS.
 */
const ORDER_WAIT_MAX_MS = 2 * 60_000;
/**
 * Settled deliveries are written at once, or, while a write is under way, together right after
 * it (at most this many a statement): the answer of a delivery is recorded within one write of
 * it, so a crash repeats only deliveries under way or answered in that window.
 */
const FLUSH_MAX = 500;

/** How many of a project's jobs this process holds before the fetch skips its group. */
function backlogOf(limit: number) {
  return Math.max(16, limit * 8);
}

export const groupOf = (projectId: number) => `project-${projectId}`;

interface Held {
  job: Job<WebhookJobData>;
  fetchedAt: number;
  /** Aborted when the claim is found gone or the process stops: the delivery is left to the retry. */
  claim: AbortController;
  /** Prepared, or why there is nothing to send (no webhook URL, the message is gone). */
  hook: PreparedWebhook | string;
  /** Its outbox row was already done (delivered by an earlier attempt): nothing to send. */
  alreadyDone: boolean;
  started: boolean;
  chain: string;
  /** Its place in its client's order: when queued, then its outbox row's (or message's) id. */
  createdOn: number;
  seq: bigint;
  /**
   * Queued in the same statement as jobs not fetched yet (the fetch's last, tied `createdOn`,
   * in a full batch, which pg-boss orders no further): waits for the next fetch, so its
   * client's earlier ones are sorted in before it starts.
   */
  tied: boolean;
  /**
   * Its client's earlier deliveries still to do that this process does not hold: it starts
   * once they are done (or after ORDER_WAIT_MAX_MS, from `waitingSince`).
   */
  blockers: Set<string>;
  waitingSince: number | null;
}

interface Lane {
  concurrency: AdaptiveConcurrency;
  running: number;
  /** Fetched and not yet settled. */
  held: number;
  /** Each client's jobs in order, the first running or next to. */
  chains: Map<string, Held[]>;
  /** Chains whose first job may start now (none of theirs running). */
  ready: Set<string>;
  /** Chains whose first job waits for its client's earlier deliveries held elsewhere. */
  waiting: Set<string>;
}

interface Settled {
  held: Held;
  /** The attempt's log row, when one was sent. */
  row?: ReturnType<typeof deliveryRow>;
  /** The outbox row to end, and its error. */
  finish?: { id: string; error: string | null };
}

export class WebhookDispatcher {
  private readonly lanes = new Map<number, Lane>();
  private readonly held = new Map<string, Held>();
  /** The deliveries answered in the same turn of the event loop go in one write. */
  private readonly answers = new GroupWrite<Settled>((batch) => this.write(batch), {
    maxItems: FLUSH_MAX,
  });
  private heartbeat: NodeJS.Timeout | null = null;
  private recheckTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  /** The `createdOn` a full fetch ended on: its jobs wait for the fetch after it (`Held.tied`). */
  private tiedOn: number | null = null;
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly boss: PgBoss,
    private readonly queue: string,
    private readonly db: PrismaClient,
  ) {}

  start(): void {
    this.loop = this.fetchLoop();
    this.heartbeat = setInterval(() => void this.touch(), HEARTBEAT_MS).unref();
  }

  /** Fetches now rather than at the next poll (a delivery was queued by this process). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Stops fetching, lets deliveries under way finish for up to `graceMs`, settles, puts the rest back. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.recheckTimer) clearTimeout(this.recheckTimer);
    const unsent: Held[] = [];
    for (const lane of this.lanes.values())
      for (const chain of lane.chains.values())
        for (const h of chain.splice(chain[0]?.started ? 1 : 0)) {
          this.release(lane, h);
          unsent.push(h);
        }
    if (unsent.length) await this.putBack(unsent);
    const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.all(this.running), grace]);
    // Still waiting for an answer: stopped, and left to their retry.
    for (const h of this.held.values()) h.claim.abort(new Error('the worker is stopping'));
    await Promise.all(this.running);
    await this.answers.drained();
  }

  private async fetchLoop(): Promise<void> {
    while (!this.stopping) {
      const room = HELD_MAX - this.held.size;
      let fetched = 0;
      let asked = 0;
      if (room >= 50) {
        asked = Math.min(FETCH_MAX, room);
        try {
          // Skipped past their backlog, unless the rest of a tie is to come. Jobs waiting for
          // earlier ones do not count: those may be the ones this fetch would bring.
          const ignoreGroups = [...this.lanes]
            .filter(
              ([, lane]) =>
                lane.held - waitingIn(lane) >= backlogOf(lane.concurrency.limit) && this.tiedOn === null,
            )
            .map(([projectId]) => groupOf(projectId));
          const jobs = await this.boss.fetch<WebhookJobData>(this.queue, {
            batchSize: asked,
            ignoreGroups,
            includeMetadata: true,
          });
          fetched = jobs.length;
          if (jobs.length) await this.admit(jobs, jobs.length === asked);
          else this.tiedOn = null;
          this.untie();
        } catch (error) {
          logError(error);
        }
      }
      if (fetched < asked || !asked) await this.sleep(POLL_MS);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        done();
      };
    });
  }

  /** Takes the fetched jobs' outbox rows and reads what they deliver, then queues each behind its client's. */
  private async admit(jobs: Job<WebhookJobData>[], full: boolean): Promise<void> {
    const now = Date.now();
    jobs.sort((a, b) => createdOnOf(a) - createdOnOf(b) || compare(seqOf(a), seqOf(b)));
    // A full batch may have cut the jobs of one statement (one `createdOn`) in two.
    const tiedOn = full ? createdOnOf(jobs[jobs.length - 1]) : null;
    this.tiedOn = tiedOn;
    let prepared: { hooks: (PreparedWebhook | string)[]; taken: Set<string> };
    try {
      prepared = await this.prepare(jobs);
    } catch {
      // One job's data can fail the batch's reading (a submission id out of range): each on its own.
      for (const job of jobs) {
        try {
          const one = await this.prepare([job], true);
          const [blockers] = await this.earlierDeliveries([job], one.hooks, one.taken);
          this.hold(job, one.hooks[0], one.taken, now, tiedOn, blockers);
        } catch (error) {
          await this.boss
            .fail(
              this.queue,
              { id: job.id, retryCount: job.retryCount },
              { message: (error as Error).message },
            )
            .catch(logError);
        }
      }
      return;
    }
    const blockers = await this.earlierDeliveries(jobs, prepared.hooks, prepared.taken);
    for (const [i, job] of jobs.entries())
      this.hold(job, prepared.hooks[i], prepared.taken, now, tiedOn, blockers[i]);
  }

  /**
   * For each job, its client's earlier deliveries still to do that this process does not hold
   * (those it holds go before it in its client's chain), in one statement: `rows` names, per
   * client, the newest row to ask about (a fetch's newest of the client, or a waiting head).
   */
  private async openEarlier(rows: Map<number, bigint>, inHand: Set<string>) {
    const open = new Map<number, bigint[]>();
    if (!rows.size) return open;
    const found = await plainSql(this.db).run(openEarlierDeliveries, {
      rows: JSON.stringify([...rows].map(([clientId, id]) => ({ clientId, id: String(id) }))),
    });
    for (const { id, clientId } of found) {
      if (inHand.has(id)) continue;
      const ids = open.get(clientId) ?? [];
      ids.push(BigInt(id));
      open.set(clientId, ids);
    }
    return open;
  }

  private async earlierDeliveries(
    jobs: Job<WebhookJobData>[],
    hooks: (PreparedWebhook | string)[],
    taken: Set<string>,
  ): Promise<Set<string>[]> {
    const newest = new Map<number, bigint>();
    const inHand = this.outboxIdsInHand();
    const clients = jobs.map((job, i) => orderedClientOf(job, hooks[i], taken));
    jobs.forEach((job, i) => {
      const clientId = clients[i];
      if (clientId === null) return;
      const id = BigInt(job.data.outboxId as string);
      inHand.add(String(id));
      if (id > (newest.get(clientId) ?? 0n)) newest.set(clientId, id);
    });
    const open = await this.openEarlier(newest, inHand);
    return jobs.map((job, i) => {
      const clientId = clients[i];
      if (clientId === null) return new Set<string>();
      const id = BigInt(job.data.outboxId as string);
      return new Set((open.get(clientId) ?? []).filter((earlier) => earlier < id).map(String));
    });
  }

  private outboxIdsInHand(): Set<string> {
    const ids = new Set<string>();
    for (const h of this.held.values()) if (h.job.data.outboxId) ids.add(h.job.data.outboxId);
    return ids;
  }

  /**
   * Reads what the jobs deliver, then takes their outbox rows (counting the attempt). One job
   * alone (`takeFirst`) takes its row first: an attempt that fails to read counts too.
   */
  private async prepare(jobs: Job<WebhookJobData>[], takeFirst = false) {
    const outboxIds = jobs.flatMap((j) => (j.data.outboxId ? [j.data.outboxId] : []));
    const take = async () =>
      outboxIds.length ? plainSql(this.db).run(takeOutboxes, { ids: JSON.stringify(outboxIds) }) : [];
    const read = () =>
      prepareWebhooks(
        this.db,
        jobs.map((j) => ({ projectId: j.data.projectId, target: targetOf(j.data) })),
      );
    const taken = takeFirst ? await take() : [];
    const hooks = await read();
    if (!takeFirst) taken.push(...(await take()));
    return { hooks, taken: new Set(taken.map((t) => t.id)) };
  }

  private hold(
    job: Job<WebhookJobData>,
    hook: PreparedWebhook | string,
    taken: Set<string>,
    now: number,
    tiedOn: number | null,
    blockers: Set<string>,
  ) {
    const { projectId, outboxId, messageId } = job.data;
    const createdOn = createdOnOf(job);
    const clientId = typeof hook === 'string' ? null : hook.clientId;
    const held: Held = {
      job,
      fetchedAt: now,
      claim: new AbortController(),
      hook,
      alreadyDone: outboxId !== undefined && !taken.has(outboxId),
      started: false,
      chain: clientId === null ? `job-${job.id}` : `client-${clientId}`,
      createdOn,
      seq: BigInt(outboxId ?? messageId ?? 0),
      tied: createdOn === tiedOn,
      blockers,
      waitingSince: null,
    };
    // An older attempt of the job still held here lost its claim when this one was fetched.
    this.held.get(job.id)?.claim.abort(new Error(`job ${job.id} was fetched again`));
    this.held.set(job.id, held);
    const lane = this.laneOf(projectId);
    lane.held++;
    const chain = lane.chains.get(held.chain);
    if (chain?.length) {
      // After every job of the client queued before it, that has not started.
      let at = chain.length;
      while (at > 0 && !chain[at - 1].started && before(held, chain[at - 1])) at--;
      chain.splice(at, 0, held);
      // A new first job (an earlier delivery, fetched again): the chain's turn is asked again.
      if (at === 0 && lane.waiting.delete(held.chain)) lane.ready.add(held.chain);
    } else {
      lane.chains.set(held.chain, [held]);
      lane.ready.add(held.chain);
    }
    if (!held.tied) this.pump(projectId, lane);
  }

  /** Jobs that waited for this fetch may start, but those of a tie it cut again. */
  private untie() {
    for (const [projectId, lane] of this.lanes) {
      let untied = false;
      for (const [key, chain] of lane.chains)
        for (const h of chain)
          if (h.tied && h.createdOn !== this.tiedOn) {
            h.tied = false;
            untied = true;
            if (!chain[0].started) lane.ready.add(key);
          }
      if (untied) this.pump(projectId, lane);
    }
  }

  private laneOf(projectId: number): Lane {
    let lane = this.lanes.get(projectId);
    if (!lane) {
      lane = {
        concurrency: new AdaptiveConcurrency(),
        running: 0,
        held: 0,
        chains: new Map(),
        ready: new Set(),
        waiting: new Set(),
      };
      this.lanes.set(projectId, lane);
    }
    return lane;
  }

  /** Starts the project's next deliveries while it is under its limit. */
  private pump(projectId: number, lane: Lane) {
    while (lane.running < lane.concurrency.limit && lane.ready.size) {
      const key = lane.ready.values().next().value as string;
      lane.ready.delete(key);
      const chain = lane.chains.get(key);
      // Jobs whose claim is gone are skipped here, in their turn.
      while (chain?.length && chain[0].claim.signal.aborted) this.release(lane, chain.shift());
      if (!chain?.length) {
        lane.chains.delete(key);
        continue;
      }
      // Made ready again when the next fetch is in.
      if (chain[0].tied) continue;
      // Made ready again once its client's earlier deliveries are done.
      if (this.waitsForEarlier(chain[0])) {
        lane.waiting.add(key);
        this.scheduleRecheck();
        continue;
      }
      const run = this.run(projectId, lane, key, chain[0]);
      this.running.add(run);
      void run.finally(() => this.running.delete(run));
    }
    if (!lane.held && !lane.running) this.lanes.delete(projectId);
  }

  private waitsForEarlier(held: Held): boolean {
    // Nothing to send: it keeps no order.
    if (!held.blockers.size || held.alreadyDone || typeof held.hook === 'string') return false;
    held.waitingSince ??= Date.now();
    if (Date.now() - held.waitingSince < ORDER_WAIT_MAX_MS) return true;
    logError(
      new Error(
        `job ${held.job.id} goes ahead of its client's earlier deliveries (outbox rows ` +
          `${[...held.blockers].join(', ')}), still not done after ${ORDER_WAIT_MAX_MS / 1000} s`,
      ),
    );
    held.blockers.clear();
    return false;
  }

  private scheduleRecheck() {
    if (this.recheckTimer || this.stopping) return;
    this.recheckTimer = setTimeout(() => {
      this.recheckTimer = null;
      void this.recheck();
    }, RECHECK_MS).unref();
  }

  /**
   * Asks again whether the waiting chains' earlier deliveries are done, for every job of those
   * chains (not only the first, or each would wait its own turn): one statement.
   */
  private async recheck() {
    const chains = new Map<number, Held[]>();
    const asked = new Map<number, bigint>();
    for (const lane of this.lanes.values())
      for (const key of lane.waiting) {
        const chain = lane.chains.get(key);
        const head = chain?.[0];
        const clientId = head && typeof head.hook !== 'string' ? head.hook.clientId : null;
        if (chain && head && !head.claim.signal.aborted && clientId !== null && head.blockers.size) {
          chains.set(clientId, chain);
          const ids = chain.flatMap((h) => (h.job.data.outboxId ? [BigInt(h.job.data.outboxId)] : []));
          asked.set(
            clientId,
            ids.reduce((a, b) => (a > b ? a : b)),
          );
        } else {
          // Gone, or to be skipped in its turn.
          lane.waiting.delete(key);
          if (head) lane.ready.add(key);
          else lane.chains.delete(key);
        }
      }
    try {
      const open = await this.openEarlier(asked, this.outboxIdsInHand());
      for (const [clientId, chain] of chains)
        for (const h of chain) {
          const id = h.job.data.outboxId;
          if (id === undefined) continue;
          h.blockers = new Set(
            (open.get(clientId) ?? []).filter((earlier) => earlier < BigInt(id)).map(String),
          );
        }
    } catch (error) {
      logError(error);
    }
    for (const [projectId, lane] of this.lanes) {
      for (const key of lane.waiting) {
        if (lane.chains.get(key)?.[0]?.blockers.size) continue;
        lane.waiting.delete(key);
        lane.ready.add(key);
      }
      this.pump(projectId, lane);
    }
  }

  private async run(projectId: number, lane: Lane, key: string, held: Held): Promise<void> {
    held.started = true;
    lane.running++;
    const { job, hook } = held;
    const outboxId = job.data.outboxId;
    try {
      if (held.alreadyDone) {
        this.settle({ held });
      } else if (typeof hook === 'string') {
        this.settle({ held, ...(outboxId && { finish: { id: outboxId, error: hook } }) });
      } else {
        const ticket = lane.concurrency.start();
        const result = await inJobContext(job, () =>
          sendWebhook((url, init) => safeFetch(url, { ...init, signal: held.claim.signal }), hook, undefined),
        );
        if (held.claim.signal.aborted) {
          // Its claim was taken away while it ran: the retry delivers it (the same webhook-id).
          this.release(lane, held);
        } else {
          metrics().webhookLag.observe((Date.now() - createdOnOf(job)) / 1000);
          lane.concurrency.finish(ticket, result);
          this.settle({
            held,
            row: deliveryRow(hook, result),
            ...(outboxId && { finish: { id: outboxId, error: result.error } }),
          });
        }
      }
    } catch (error) {
      logError(error);
      this.release(lane, held);
    } finally {
      lane.running--;
      const chain = lane.chains.get(key);
      chain?.shift();
      if (chain?.length) lane.ready.add(key);
      else lane.chains.delete(key);
      this.pump(projectId, lane);
    }
  }

  /**
   * Forgets a job left to its retry (or put back): no statement. Its client's later deliveries
   * in hand wait for that retry.
   */
  private release(lane: Lane, held: Held | undefined) {
    if (!held || this.held.get(held.job.id) !== held) return;
    this.held.delete(held.job.id);
    lane.held--;
    const outboxId = held.job.data.outboxId;
    if (outboxId === undefined || held.alreadyDone) return;
    const chain = lane.chains.get(held.chain) ?? [];
    for (const later of chain.slice(chain.indexOf(held) + 1)) later.blockers.add(outboxId);
  }

  private settle(settled: Settled) {
    this.answers.add(settled).catch(logError);
  }

  /** Records a batch of answers, ends their outbox rows and completes their jobs: three statements. */
  private async write(batch: Settled[]) {
    const sql = plainSql(this.db);
    const rows = batch.flatMap((s) => (s.row ? [s.row] : []));
    const finished = batch.flatMap((s) => (s.finish ? [s.finish] : []));
    for (let attempt = 1; ; attempt++) {
      try {
        if (rows.length)
          await sql.run(insertDeliveries, {
            rows: JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? String(v) : v)),
          });
        rows.length = 0;
        if (finished.length) await sql.run(finishOutboxes, { rows: JSON.stringify(finished) });
        finished.length = 0;
        await this.boss.complete(
          this.queue,
          batch.map(({ held }) => ({ id: held.job.id, retryCount: held.job.retryCount })),
        );
        break;
      } catch (error) {
        logError(error);
        // Kept while the database is away: a job not completed would deliver again.
        if (attempt >= 5) break;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
    for (const { held } of batch) {
      if (this.held.get(held.job.id) !== held) continue;
      this.held.delete(held.job.id);
      const lane = this.lanes.get(held.job.data.projectId);
      if (lane) {
        lane.held--;
        if (!lane.held && !lane.running) this.lanes.delete(held.job.data.projectId);
      }
    }
    // Room freed: a project skipped at its backlog may be fetched again.
    this.wake();
  }

  private async putBack(jobs: Held[]) {
    await plainSql(this.db)
      .run(putBackJobs, { queue: this.queue, ids: JSON.stringify(jobs.map((h) => h.job.id)) })
      .catch(logError);
  }

  /** Keeps the held jobs' claims; stops those found gone; puts back those held too long unsent. */
  private async touch() {
    const held = [...this.held.values()].filter((h) => !h.claim.signal.aborted);
    if (!held.length) return;
    try {
      const touched = await this.boss.touch(
        this.queue,
        held.map((h) => ({ id: h.job.id, retryCount: h.job.retryCount })),
      );
      // The ids it refreshed (this pg-boss returns them; its types do not say so).
      const settled = (touched as { settled?: string[] }).settled;
      if (settled) {
        const alive = new Set(settled);
        for (const h of held)
          if (!alive.has(h.job.id))
            h.claim.abort(new Error(`job ${h.job.id} is no longer active under this worker's claim`));
      }
    } catch (error) {
      logError(error);
    }
    // Held unsent too long behind a slow receiver: put back with the rest of its client's, in order.
    const old = Date.now() - HOLD_MAX_MS;
    const back: Held[] = [];
    for (const lane of this.lanes.values())
      for (const chain of lane.chains.values())
        if (chain.some((h) => !h.started && h.fetchedAt < old))
          for (const h of chain.splice(chain[0]?.started ? 1 : 0)) {
            this.release(lane, h);
            back.push(h);
          }
    if (back.length) await this.putBack(back);
  }
}

function targetOf(data: WebhookJobData): WebhookTarget {
  return data.messageId !== undefined
    ? { messageId: BigInt(data.messageId), ...(data.status ? { status: data.status } : {}) }
    : { submissionId: data.submissionId ?? 0 };
}

function createdOnOf(job: Job<WebhookJobData>): number {
  return new Date((job as { createdOn?: Date | string }).createdOn ?? 0).getTime();
}

function seqOf(job: Job<WebhookJobData>): bigint {
  return BigInt(job.data.outboxId ?? job.data.messageId ?? 0);
}

const compare = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Whether `a` goes before `b` in their client's order: by their outbox rows (written in order
 * under the client's lease; their jobs may be queued in another order by two processes), else
 * by when they were queued.
 */
function before(a: Held, b: Held): boolean {
  const [x, y] = [a.job.data.outboxId, b.job.data.outboxId];
  if (x !== undefined && y !== undefined) return BigInt(x) < BigInt(y);
  return a.createdOn < b.createdOn || (a.createdOn === b.createdOn && a.seq < b.seq);
}

/** The client whose order a job keeps across workers: one with an outbox row that it delivers. */
function orderedClientOf(job: Job<WebhookJobData>, hook: PreparedWebhook | string, taken: Set<string>) {
  const id = job.data.outboxId;
  return id !== undefined && typeof hook !== 'string' && taken.has(id) ? hook.clientId : null;
}

/** Jobs in chains waiting for their client's earlier deliveries. */
function waitingIn(lane: Lane): number {
  let count = 0;
  for (const key of lane.waiting) count += lane.chains.get(key)?.length ?? 0;
  return count;
}

function logError(error: unknown) {
  log.error((error as Error).message);
}

const globalForDispatcher = globalThis as unknown as { blockbotWebhookDispatcher?: WebhookDispatcher };

/** Starts this process's dispatcher; returns how to stop it. */
export async function startWebhookDispatcher(boss: PgBoss, queue: string): Promise<() => Promise<void>> {
  const dispatcher = new WebhookDispatcher(boss, queue, await getDb());
  globalForDispatcher.blockbotWebhookDispatcher = dispatcher;
  dispatcher.start();
  return async () => {
    if (globalForDispatcher.blockbotWebhookDispatcher === dispatcher)
      globalForDispatcher.blockbotWebhookDispatcher = undefined;
    await dispatcher.stop();
  };
}

/** Wakes this process's dispatcher, when it runs one: a delivery was just queued. */
export function wakeWebhookDispatcher(): void {
  globalForDispatcher.blockbotWebhookDispatcher?.wake();
}
