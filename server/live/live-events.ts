import { randomUUID } from 'node:crypto';
import type { Presence } from '@/lib/schema/draft-presence';
import { logFor } from '@/server/log';

const log = logFor('live');

/**
 * Live events (docs/architecture.md, "Live updates"): what changed, by id only. A subscriber
 * reads what it shows from the database with its own access checks, so an event carries no
 * data a listener could not otherwise see.
 */
export type LiveEvent =
  /** A message was stored, or its delivery state was recorded. */
  | { kind: 'message'; projectId: number; clientId: number; messageId: string }
  /** The client's conversation changed: assignment, pause, waiting for an operator, unread. */
  | { kind: 'client'; projectId: number; clientId: number }
  /** The bot is working on an event of this client (channels with a typing indicator). */
  | { kind: 'typing'; projectId: number; clientId: number; on: boolean }
  /**
   * What the bot is writing, as an AI answer streams (docs/ai.md, "Streaming"): shown in place
   * of the typing indicator until the message is stored. The one event that carries text, and
   * only to the client's own listeners and the project's members, who read it anyway once stored.
   */
  | { kind: 'draft'; projectId: number; clientId: number; text: string }
  /** A deal moved to another CRM stage, was closed, or its variables changed (the deals board). */
  | { kind: 'deal'; projectId: number; clientId: number; dealId: number }
  /** The bot's draft has a new revision (server/projects/draft-changes-store.ts): canvases read it. */
  | { kind: 'bot'; projectId: number; revision: number }
  /**
   * Who has the bot open in the builder and where (server/projects/draft-presence.ts): a member's
   * name and their selection, to the project's members, who see the team anyway.
   */
  | ({ kind: 'presence'; projectId: number } & Presence)
  /**
   * Events may have been missed (the connection to the other instances was lost and is back):
   * re-read what is shown. Sent to every listener of this process.
   */
  | { kind: 'resync'; projectId: number };

export type LiveListener = (event: LiveEvent) => void;
export interface LiveFilter {
  projectId: number;
  clientId?: number;
}

/** How events reach the other processes (PostgreSQL NOTIFY in server mode). */
export interface LiveTransport {
  send(payload: string): Promise<void>;
  close(): Promise<void>;
}

/** pg_notify's payload limit is 8000 bytes; a batch is split below it. */
const MAX_PAYLOAD = 7000;

/**
 * Fans events out to this process's listeners at once and, through the transport, to every
 * other process's. Events published in one tick leave in one notification; those published
 * while a notification is on its way leave together right after it (one at a time on the
 * connection, and fewer under load).
 */
export class LiveHub {
  readonly origin = randomUUID();
  /** How this hub's own notifications begin (`flush` writes the origin first): its echo is skipped unparsed. */
  private readonly echo = `{"o":${JSON.stringify(this.origin)},`;
  /**
   * Per project, per client: an event reaches its client's listeners without passing every
   * open widget stream of the project. Key `null` holds the listeners of the whole project.
   */
  private readonly listeners = new Map<number, Map<number | null, Set<LiveListener>>>();
  private transport: LiveTransport | null = null;
  private queued: LiveEvent[] = [];
  /** The notifications on their way, while there are any. */
  private flushing: Promise<void> | null = null;

  publish(events: readonly LiveEvent[]): void {
    if (!events.length) return;
    for (const event of events) this.deliver(event);
    if (!this.transport) return;
    this.queued.push(...events);
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  subscribe(filter: LiveFilter, listener: LiveListener): () => void {
    const { projectId } = filter;
    const clientId = filter.clientId ?? null;
    const project = this.listeners.get(projectId) ?? new Map<number | null, Set<LiveListener>>();
    this.listeners.set(projectId, project);
    const set = project.get(clientId) ?? new Set();
    project.set(clientId, set);
    // A wrapper, so one function subscribed twice is two listeners.
    const entry: LiveListener = (event) => listener(event);
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size || project.get(clientId) !== set) return;
      project.delete(clientId);
      if (!project.size && this.listeners.get(projectId) === project) this.listeners.delete(projectId);
    };
  }

  /** How many listeners are open (the widget benchmark reports memory per connection). */
  get listenerCount(): number {
    let n = 0;
    for (const project of this.listeners.values()) for (const set of project.values()) n += set.size;
    return n;
  }

  setTransport(transport: LiveTransport | null): void {
    this.transport = transport;
  }

  /** A notification from another process (or this one's own echo, which was delivered already). */
  receive(payload: string): void {
    if (payload.startsWith(this.echo)) return;
    let parsed: { o?: unknown; e?: unknown };
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    if (parsed.o === this.origin || !Array.isArray(parsed.e)) return;
    for (const event of parsed.e as LiveEvent[]) this.deliver(event);
  }

  /** Every listener re-reads: notifications may have been lost while the transport was down. */
  resync(): void {
    for (const [projectId, project] of this.listeners)
      for (const set of [...project.values()])
        for (const listener of [...set]) safely(listener, { kind: 'resync', projectId });
  }

  async close(): Promise<void> {
    // What was published before the close still leaves.
    await this.flushing;
    const transport = this.transport;
    this.transport = null;
    this.queued = [];
    await transport?.close();
  }

  private deliver(event: LiveEvent): void {
    const project = this.listeners.get(event.projectId);
    if (!project) return;
    // An event of one client reaches the project's listeners and that client's; any other (the
    // draft's revisions), the project's only: a client's widget has no use for it.
    const sets = 'clientId' in event ? [project.get(null), project.get(event.clientId)] : [project.get(null)];
    for (const set of sets) if (set) for (const listener of [...set]) safely(listener, event);
  }

  private async flush(): Promise<void> {
    for (;;) {
      const events = this.queued;
      this.queued = [];
      const transport = this.transport;
      if (!events.length || !transport) break;
      for (const batch of batches(events)) {
        await transport
          .send(JSON.stringify({ o: this.origin, e: batch }))
          .catch((error: Error) => log.error(`notify failed: ${error.message}`));
      }
    }
    this.flushing = null;
  }
}

function batches(events: LiveEvent[]): LiveEvent[][] {
  const out: LiveEvent[][] = [];
  let batch: LiveEvent[] = [];
  let size = 0;
  for (const event of events) {
    const length = JSON.stringify(event).length + 1;
    if (batch.length && size + length > MAX_PAYLOAD) {
      out.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(event);
    size += length;
  }
  if (batch.length) out.push(batch);
  return out;
}

function safely(listener: LiveListener, event: LiveEvent) {
  try {
    listener(event);
  } catch (error) {
    log.error(`listener failed: ${(error as Error).message}`);
  }
}

const globalForLive = globalThis as unknown as { blockbotLiveHub?: LiveHub };

/** The process's hub (one across Next's module copies). */
export function liveHub(): LiveHub {
  globalForLive.blockbotLiveHub ??= new LiveHub();
  return globalForLive.blockbotLiveHub;
}

/** After the commit that stored what the events describe. Fire-and-forget, never throws. */
export function publishLive(events: readonly LiveEvent[]): void {
  liveHub().publish(events);
}

/** Listener for one project's events (optionally one client's). Returns the unsubscribe function. */
export function subscribeLive(filter: LiveFilter, listener: LiveListener): () => void {
  return liveHub().subscribe(filter, listener);
}
