import { randomUUID } from 'node:crypto';
import { getEnv } from '@/server/config/env';
import { type ClientTarget, clientWhere } from '@/server/contacts/client-service';
import type { Sql } from '@/server/db/raw-sql';
import { notFound } from '@/server/errors';
import { type CreatedClient, createLeased, exists, release } from './store/claim';

/**
 * How long an event may hold its client (docs/architecture.md, "The flow of a message";
 * BLOCKBOT_CLIENT_LEASE_SECONDS, 120 by default). An event's final write checks its lease is
 * still its own; a process that died holding one frees the client after this long. Events are
 * bounded well below the default (requests per chain, each with its timeout).
 */
export const leaseSeconds = (): number => getEnv().BLOCKBOT_CLIENT_LEASE_SECONDS;

/** Polling a client another process holds: from a few ms, doubling, to this at most. */
const MAX_WAIT_MS = 200;

/**
 * The claim found no free client row: a new identity is created already held by this event,
 * with its open deal and the state the event starts from; undefined when another event holds
 * the client (or created it this instant). A client id that does not exist is a not-found error.
 */
export async function claimMissing(
  sql: Sql,
  projectId: number,
  target: ClientTarget,
  token: string,
): Promise<CreatedClient | undefined> {
  if ('clientId' in target) {
    if ((await sql.run(exists, clientWhere(projectId, target).params)).length) return undefined;
    throw notFound(`Client ${target.clientId} does not exist in this project.`);
  }
  const { ref } = target;
  const [created] = await sql.run(createLeased, {
    name: ref.name ?? '',
    avatar: ref.avatar ?? '',
    tag: ref.tag ?? '',
    at: new Date(),
    token,
    seconds: leaseSeconds(),
    ...clientWhere(projectId, target).params,
  });
  return created;
}

/** Frees a client whose event failed before its final write (which frees it otherwise). */
export async function releaseLease(sql: Sql, clientId: number, token: string): Promise<void> {
  await sql.run(release, { clientId, token });
}

export const newLeaseToken = (): string => randomUUID();

/**
 * Consecutive events of one client in this process that take the lease from each other
 * before the next one frees it: events of other processes, which poll, get their turn.
 */
export const MAX_HANDOVERS = 16;

/** This process's events of one target: how many wait or run, and the lease handed on. */
interface ClientQueue {
  tail: Promise<void>;
  queued: number;
  /** The token a finished event kept the lease under for the next one. */
  handed?: string;
  handovers: number;
}

// Events of one client in this process queue here in arrival order, so only events of other
// processes ever poll for a lease.
const globalForLeases = globalThis as unknown as { blockbotClientQueues?: Map<string, ClientQueue> };
globalForLeases.blockbotClientQueues ??= new Map();
const queues = globalForLeases.blockbotClientQueues;

/** An event's turn at its client in this process. */
export interface ClientTurn {
  /** The token to claim with: the lease the previous event kept for this one, or a new one. */
  token: string;
  /**
   * Asked just before the final write: true when an event of this client waits behind this
   * one here, so the write keeps the lease for it (it then claims with the same token, and no
   * other process can take the client in between). Once true, the lease is handed on when
   * `fn` returns.
   */
  keepForNext(): boolean;
}

/** A place in a target's queue in this process: its turn comes once `before` settles. */
export interface ClientPlace {
  queue: ClientQueue;
  before: Promise<void>;
  /** Gives the turn to the next place (once; again does nothing). */
  leave(): void;
}

const queueKey = (projectId: number, target: ClientTarget) =>
  JSON.stringify(clientWhere(projectId, target).params);

/** Takes the last place in the target's queue, at once (before any await: arrival order holds). */
function takePlace(key: string): ClientPlace {
  let queue = queues.get(key);
  if (!queue) {
    queue = { tail: Promise.resolve(), queued: 0, handovers: 0 };
    queues.set(key, queue);
  }
  const taken = queue;
  const before = taken.tail;
  let done!: () => void;
  const mine = new Promise<void>((resolve) => {
    done = resolve;
  });
  taken.tail = before.then(() => mine);
  taken.queued++;
  let left = false;
  return {
    queue: taken,
    before,
    leave() {
      if (left) return;
      left = true;
      done();
      if (--taken.queued === 0) queues.delete(key);
    },
  };
}

/**
 * The first place in a target's queue in this process, and the token its event claims with,
 * taken before the event's source claims the client ahead of the event (a channel's update,
 * stored and claimed in one statement): only while no event of the target is queued here, so a
 * claim made ahead never takes the lease from an event queued before it. Passed to `inClientOrder`,
 * or left unused (`place.leave()`).
 */
export interface FirstPlace {
  token: string;
  place: ClientPlace;
}

export function takeFirstPlace(projectId: number, target: ClientTarget): FirstPlace | undefined {
  const key = queueKey(projectId, target);
  return queues.has(key) ? undefined : { token: newLeaseToken(), place: takePlace(key) };
}

/**
 * Runs `fn` after the events of the same target that arrived before it in this process have
 * run theirs (at `first`, a place taken earlier for it). `fn` claims the client with the turn's
 * token and releases it itself, unless it keeps it for the next event.
 */
export async function inClientOrder<T>(
  projectId: number,
  target: ClientTarget,
  first: FirstPlace | undefined,
  fn: (turn: ClientTurn) => Promise<T>,
): Promise<T> {
  const place = first?.place ?? takePlace(queueKey(projectId, target));
  const { queue } = place;
  let kept = false;
  try {
    await place.before;
    const token = first?.token ?? queue.handed ?? newLeaseToken();
    if (queue.handed === undefined) queue.handovers = 0;
    queue.handed = undefined;
    const turn: ClientTurn = {
      token,
      keepForNext: () => {
        kept = queue.queued > 1 && queue.handovers < MAX_HANDOVERS;
        return kept;
      },
    };
    const result = await fn(turn);
    if (kept) {
      queue.handed = token;
      queue.handovers++;
    }
    return result;
  } finally {
    place.leave();
  }
}

/** Tries `claim` until it gets the client: another process's event holds it meanwhile. */
export async function untilClaimed<T>(claim: () => Promise<T | undefined>): Promise<T> {
  for (let wait = 2; ; wait = Math.min(wait * 2, MAX_WAIT_MS)) {
    const claimed = await claim();
    if (claimed !== undefined) return claimed;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
