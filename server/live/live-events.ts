import { randomUUID } from 'node:crypto';

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
 * other process's. Events published in one tick leave in one notification.
 */
export class LiveHub {
  readonly origin = randomUUID();
  private readonly listeners = new Map<number, Set<{ filter: LiveFilter; listener: LiveListener }>>();
  private transport: LiveTransport | null = null;
  private queued: LiveEvent[] = [];
  private flushing = false;

  publish(events: readonly LiveEvent[]): void {
    if (!events.length) return;
    for (const event of events) this.deliver(event);
    if (!this.transport) return;
    this.queued.push(...events);
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => void this.flush());
    }
  }

  subscribe(filter: LiveFilter, listener: LiveListener): () => void {
    const entry = { filter, listener };
    const set = this.listeners.get(filter.projectId) ?? new Set();
    this.listeners.set(filter.projectId, set);
    set.add(entry);
    return () => {
      set.delete(entry);
      if (!set.size && this.listeners.get(filter.projectId) === set) this.listeners.delete(filter.projectId);
    };
  }

  /** How many listeners are open (the widget benchmark reports memory per connection). */
  get listenerCount(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  setTransport(transport: LiveTransport | null): void {
    this.transport = transport;
  }

  /** A notification from another process (or this one's own echo, which was delivered already). */
  receive(payload: string): void {
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
    for (const [projectId, set] of this.listeners)
      for (const { listener } of [...set]) safely(listener, { kind: 'resync', projectId });
  }

  async close(): Promise<void> {
    const transport = this.transport;
    this.transport = null;
    this.queued = [];
    await transport?.close();
  }

  private deliver(event: LiveEvent): void {
    const set = this.listeners.get(event.projectId);
    if (!set) return;
    for (const { filter, listener } of [...set]) {
      if (filter.clientId !== undefined && 'clientId' in event && event.clientId !== filter.clientId)
        continue;
      safely(listener, event);
    }
  }

  private async flush(): Promise<void> {
    const events = this.queued;
    this.queued = [];
    this.flushing = false;
    const transport = this.transport;
    if (!transport) return;
    for (const batch of batches(events)) {
      await transport
        .send(JSON.stringify({ o: this.origin, e: batch }))
        .catch((error: Error) => console.error('[live] notify failed:', error.message));
    }
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
    console.error('[live] listener failed:', (error as Error).message);
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
